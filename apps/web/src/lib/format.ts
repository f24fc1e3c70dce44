import type { PlanSummary } from "@parlons/contract";
import type { Lang } from "./locale-path";

/** A plan's name in the UI language (name_fr in French). */
export function planName(plan: Pick<PlanSummary, "name" | "name_fr">, lang: Lang): string {
  return lang === "fr" ? plan.name_fr || plan.name : plan.name || plan.name_fr;
}

/** The default free plan, or any plan without a price (spec §9: premium means amount > 0). */
export function isFreePlan(plan: Pick<PlanSummary, "amount" | "is_default"> | null | undefined): boolean {
  return !plan || plan.is_default || plan.amount <= 0;
}

export function formatMoney(cents: number, currency: string, lang: Lang): string {
  return new Intl.NumberFormat(lang === "fr" ? "fr-FR" : "en-GB", { style: "currency", currency }).format(
    cents / 100,
  );
}
