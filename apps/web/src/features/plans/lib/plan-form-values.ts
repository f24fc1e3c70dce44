import type { Plan, PlanInterval, PlanScope } from "@parlons/contract";

/** What the plan form edits: the amount as a decimal (9.9), features one per line. */
export interface PlanFormValues {
  name: string;
  name_fr: string;
  amount: number | null;
  currency: string;
  interval: PlanInterval;
  description_en: string;
  description_fr: string;
  features_en: string;
  features_fr: string;
  name_es: string;
  description_es: string;
  features_es: string;
  active: boolean;
  position: number | null;
  scope: PlanScope;
  course_ids: string[];
  trial_days: number | null;
}

/** Body of `POST /v1/plans` and `PUT /v1/plans/{id}` (all fields). */
export interface PlanBody {
  name: string;
  name_fr: string;
  amount: number;
  currency: string;
  interval: PlanInterval;
  description_en: string;
  description_fr: string;
  features_en: string[];
  features_fr: string[];
  name_es: string;
  description_es: string;
  features_es: string[];
  active: boolean;
  position: number;
  scope: PlanScope;
  /** The courses a plan of scope "courses" opens; none for every course. */
  course_ids: string[];
  /** Free days a first subscription starts with (0: none). */
  trial_days: number;
}

/** A decimal amount ("9,90", 9.9) to integer cents (990), rounding away float noise (0.1 + 0.2). */
export function centsFromDecimal(value: number | string | null | undefined): number {
  if (value === null || value === undefined || value === "") return 0;
  const n = typeof value === "number" ? value : Number(value.replace(/\s/g, "").replace(",", "."));
  if (!Number.isFinite(n) || n < 0) return 0;
  return Math.round(n * 100);
}

export function decimalFromCents(cents: number): number {
  return cents / 100;
}

/** A textarea with one item per line → the list (blank lines dropped, spaces trimmed). */
export function linesToList(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export function listToLines(list: readonly string[]): string {
  return list.join("\n");
}

export const EMPTY_PLAN: PlanFormValues = {
  name: "",
  name_fr: "",
  amount: 0,
  currency: "EUR",
  interval: "month",
  description_en: "",
  description_fr: "",
  features_en: "",
  features_fr: "",
  name_es: "",
  description_es: "",
  features_es: "",
  active: true,
  position: 0,
  scope: "all",
  course_ids: [],
  trial_days: 0,
};

export function toFormValues(plan: Plan): PlanFormValues {
  return {
    name: plan.name,
    name_fr: plan.name_fr,
    amount: decimalFromCents(plan.amount),
    currency: plan.currency,
    interval: plan.interval,
    description_en: plan.description_en,
    description_fr: plan.description_fr,
    features_en: listToLines(plan.features_en),
    features_fr: listToLines(plan.features_fr),
    name_es: plan.name_es,
    description_es: plan.description_es,
    features_es: listToLines(plan.features_es),
    active: plan.active,
    position: plan.position,
    scope: plan.scope,
    course_ids: plan.course_ids,
    trial_days: plan.trial_days,
  };
}

export function toPlanBody(values: PlanFormValues): PlanBody {
  return {
    name: values.name.trim(),
    name_fr: values.name_fr.trim(),
    amount: centsFromDecimal(values.amount),
    currency: values.currency.trim().toUpperCase(),
    interval: values.interval,
    description_en: values.description_en.trim(),
    description_fr: values.description_fr.trim(),
    features_en: linesToList(values.features_en),
    features_fr: linesToList(values.features_fr),
    name_es: values.name_es.trim(),
    description_es: values.description_es.trim(),
    features_es: linesToList(values.features_es),
    active: values.active,
    position: values.position ?? 0,
    scope: values.scope,
    course_ids: values.scope === "courses" ? (values.course_ids ?? []) : [],
    // free days start a recurring paid plan only
    trial_days:
      values.interval !== "once" && centsFromDecimal(values.amount) > 0 ? (values.trial_days ?? 0) : 0,
  };
}
