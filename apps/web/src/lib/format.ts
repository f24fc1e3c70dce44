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

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "il y a 5 minutes" / "5 minutes ago": the largest unit that keeps the number below the next step. */
export function formatRelativeTime(iso: string, lang: Lang, now: Date = new Date()): string {
  let value = (new Date(iso).getTime() - now.getTime()) / 1000;
  const format = new Intl.RelativeTimeFormat(lang === "fr" ? "fr-FR" : "en-GB", { numeric: "auto" });
  for (const [unit, step] of RELATIVE_STEPS) {
    if (Math.abs(value) < step) return format.format(Math.round(value), unit);
    value /= step;
  }
  return format.format(Math.round(value), "year");
}
