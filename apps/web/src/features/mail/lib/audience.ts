import type { MailAudience } from "@parlons/contract";

export const ANY = "any";

/** The audience selects of the send form: "any" leaves a filter out. */
export interface AudienceValues {
  role: string;
  plan: "free" | "premium" | typeof ANY;
  speak: "FR" | "EN" | typeof ANY;
}

export const EMPTY_AUDIENCE: AudienceValues = { role: ANY, plan: ANY, speak: ANY };

export function toAudience(values: Partial<AudienceValues> | undefined): MailAudience {
  const audience: MailAudience = {};
  if (values?.role && values.role !== ANY) audience.role = values.role;
  if (values?.plan && values.plan !== ANY) audience.plan = values.plan;
  if (values?.speak && values.speak !== ANY) audience.speak = values.speak;
  return audience;
}
