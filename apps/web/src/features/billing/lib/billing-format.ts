import type { CustomerPlanStatus, PlanInterval } from "@parlons/contract";

/** The i18n key (billing namespace) of a billing interval: "/ mois", "/ an", "une fois". */
export function intervalKey(interval: PlanInterval): string {
  return `billing:interval.${interval}`;
}

/** Tag colour of a customer plan status. */
export function statusColor(status: CustomerPlanStatus): string {
  switch (status) {
    case "ACTIVE":
      return "green";
    case "APPROVAL_PENDING":
      return "blue";
    case "SUSPENDED":
      return "orange";
    default:
      return "default";
  }
}

/** A learner may cancel an active or suspended subscription (the API refuses the others). */
export function canCancel(status: CustomerPlanStatus): boolean {
  return status === "ACTIVE" || status === "SUSPENDED";
}

export type CheckoutTarget = { kind: "external"; url: string } | { kind: "internal"; path: string };

/**
 * Where the approve link of a new subscription leads: the provider's page (https, full-page
 * redirect) or our demo checkout (a local path, routed in the app). Anything else is refused.
 */
export function checkoutTarget(approveUrl: string): CheckoutTarget | null {
  if (approveUrl.startsWith("/") && !approveUrl.startsWith("//") && !approveUrl.startsWith("/\\"))
    return { kind: "internal", path: approveUrl };
  try {
    const url = new URL(approveUrl);
    if (url.protocol === "https:") return { kind: "external", url: url.href };
  } catch {
    // not a URL
  }
  return null;
}
