import type { MailAudience, Speak } from "@parlons/contract";

export const ANY = "any";

/** Inactivity the form accepts, in days (the contract's bounds). */
export const INACTIVE_DAYS = { min: 1, max: 365 } as const;

/** The audience fields of the send form: "any" (or no number) leaves a filter out. */
export interface AudienceValues {
  role: string;
  plan: "free" | "premium" | typeof ANY;
  speak: Speak | typeof ANY;
  /** A course id, or "any". */
  course_id: string;
  /** Learners inactive for at least this many days; empty for everyone. */
  inactive_days: number | null;
}

export const EMPTY_AUDIENCE: AudienceValues = {
  role: ANY,
  plan: ANY,
  speak: ANY,
  course_id: ANY,
  inactive_days: null,
};

const validDays = (days: unknown): days is number =>
  typeof days === "number" &&
  Number.isInteger(days) &&
  days >= INACTIVE_DAYS.min &&
  days <= INACTIVE_DAYS.max;

export function toAudience(values: Partial<AudienceValues> | undefined): MailAudience {
  const audience: MailAudience = {};
  if (values?.role && values.role !== ANY) audience.role = values.role;
  if (values?.plan && values.plan !== ANY) audience.plan = values.plan;
  if (values?.speak && values.speak !== ANY) audience.speak = values.speak;
  if (values?.course_id && values.course_id !== ANY) audience.course_id = values.course_id;
  // a number being typed (0, 400) is left out rather than sent for a 422
  if (validDays(values?.inactive_days)) audience.inactive_days = values.inactive_days;
  return audience;
}
