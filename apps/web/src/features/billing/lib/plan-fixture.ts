import type { Plan } from "@parlons/contract";

/** A paid plan of every course for tests, with the fields given. */
export const plan = (over: Partial<Plan>): Plan => ({
  id: "p",
  name: "P",
  name_fr: "P",
  description_en: "",
  description_fr: "",
  features_en: [],
  features_fr: [],
  name_es: "",
  description_es: "",
  features_es: [],
  amount: 990,
  currency: "EUR",
  interval: "month",
  active: true,
  is_default: false,
  premium: true,
  position: 0,
  scope: "all",
  course_ids: [],
  trial_days: 0,
  created_at: "",
  updated_at: "",
  ...over,
});
