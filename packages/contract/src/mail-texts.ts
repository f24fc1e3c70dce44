import { z } from "zod";
import { MAIL_VARIABLES, unknownVariables } from "./mail";

/**
 * The subject and body fields that templates and campaigns share, and their checks: known
 * variables only, Spanish subject and body together. Internal to the contract (the package's
 * index exports only `MailTextFields`).
 */

export const subjectField = z.string().trim().min(1, "Subject is required").max(200);
export const bodyField = z.string().trim().min(1, "Body is required").max(20_000);

/** Adds a 422 issue per field that uses an unknown variable. */
export const TEXT_FIELDS = [
  "subject_fr",
  "subject_en",
  "subject_es",
  "body_fr",
  "body_en",
  "body_es",
] as const;
/** Subjects and bodies per language, any of them missing (a form being filled in). */
export type MailTextFields = Partial<Record<(typeof TEXT_FIELDS)[number], string | undefined>>;

export function checkVariables(value: MailTextFields, ctx: z.RefinementCtx) {
  for (const field of TEXT_FIELDS) {
    const unknown = unknownVariables(value[field] ?? "");
    if (unknown.length) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `Unknown variable ${unknown.join(", ")}: use ${MAIL_VARIABLES.map((v) => `{{${v}}}`).join(", ")}`,
      });
    }
  }
}

export const spanishSubject = z.string().trim().max(200).optional();
export const spanishBody = z.string().trim().max(20_000).optional();

/** Spanish is optional, but its subject and body go together. */
export function checkSpanishPair(value: MailTextFields, ctx: z.RefinementCtx) {
  const spanish = { subject_es: value.subject_es ?? "", body_es: value.body_es ?? "" };
  for (const [field, other] of [
    ["subject_es", "body_es"],
    ["body_es", "subject_es"],
  ] as const) {
    if (!spanish[field] && spanish[other]) {
      ctx.addIssue({ code: "custom", path: [field], message: "Give the Spanish subject and body together" });
    }
  }
}

/** The texts of a stored template or campaign, as the API answers them ("" where it has no Spanish text). */
export const storedTexts = {
  subject_fr: z.string(),
  subject_en: z.string(),
  body_fr: z.string(),
  body_en: z.string(),
  subject_es: z.string(),
  body_es: z.string(),
};
