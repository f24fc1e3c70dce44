import type { PurchaseStatus } from "../../db/schema/billing";
import type { ProviderOrder } from "../../integrations/payments";

/** What a purchase does with its order's truth: nothing, capture it, record its payment, or close it. */
export type PurchaseStep =
  | { kind: "none" }
  | { kind: "capture" }
  | { kind: "pay"; capture: NonNullable<ProviderOrder["capture"]> }
  | { kind: "cancel" };

/** Capture statuses that mean the money was taken (a refund made at the provider's dashboard included). */
const TAKEN = new Set(["COMPLETED", "PARTIALLY_REFUNDED", "REFUNDED"]);

/**
 * The provider's order in, one step out. Only a pending purchase moves: a paid one is paid once
 * (a replayed capture, return page or webhook finds it paid and does nothing), a refund is ours to
 * make, and a closed one stays closed.
 */
export function nextPurchaseStep(status: PurchaseStatus, order: ProviderOrder): PurchaseStep {
  if (status !== "PENDING") return { kind: "none" };
  if (order.capture && TAKEN.has(order.capture.status)) return { kind: "pay", capture: order.capture };
  if (order.status === "APPROVED") return { kind: "capture" };
  if (order.status === "VOIDED") return { kind: "cancel" };
  // waiting for the buyer, or a capture PayPal still holds (PENDING): a later read decides
  return { kind: "none" };
}
