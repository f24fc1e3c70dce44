import { z } from "zod";
import { speak } from "./auth";
import { envelope, pagination } from "./common";
import {
  bodyField,
  checkSpanishPair,
  checkVariables,
  type MailTextFields,
  spanishBody,
  spanishSubject,
  storedTexts,
  subjectField,
  TEXT_FIELDS,
} from "./mail-texts";

/** Bulk sends (campaigns) to an audience of users. */

/** Who a bulk mail goes to. Only active accounts ever receive it; filters narrow it down. */
export const mailAudience = z
  .object({
    /** A role title (CUSTOMER, ADMIN…): users holding that role. */
    role: z.string().trim().min(1).max(60).optional(),
    /** "free" (the free plan or none), "premium" (a paid plan) or one plan's id. */
    plan: z.union([z.enum(["free", "premium"]), z.uuid()]).optional(),
    status: z.literal("ACTIVE").optional(),
    /** The language the user reads. */
    speak: speak.optional(),
    /** A course's learners: users with progress in at least one of its lessons (who started it). */
    course_id: z.uuid("Choose a course from the list").optional(),
    /**
     * Learners inactive for N days: accounts at least N days old with no listening, saved progress
     * or review in the last N days.
     */
    inactive_days: z
      .number("Give a number of days")
      .int("Give a whole number of days")
      .min(1, "At least 1 day")
      .max(365, "At most 365 days")
      .optional(),
  })
  .strict();
export type MailAudience = z.infer<typeof mailAudience>;

export const CAMPAIGN_STATUSES = ["DRAFT", "QUEUED", "SENDING", "SENT", "FAILED"] as const;
export const campaignStatus = z.enum(CAMPAIGN_STATUSES);
export type CampaignStatus = z.infer<typeof campaignStatus>;

export const mailCampaign = z.object({
  id: z.string(),
  template_id: z.string().nullable(),
  /** Its Spanish readers get English when it has no Spanish text. */
  ...storedTexts,
  audience: mailAudience,
  status: campaignStatus,
  /** Deliveries queued (the recipients when it was sent). */
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /**
   * Recipients who unsubscribed from news: through this campaign's mail (its link or one-click
   * header), or after it was queued and before their mail went out (then not sent, and not failed).
   */
  unsubscribed: z.number().int(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type MailCampaign = z.infer<typeof mailCampaign>;

const content = {
  /** Copies the template's subjects and bodies into the campaign (later edits do not change it). */
  template_id: z.uuid().optional(),
  subject_fr: subjectField.optional(),
  subject_en: subjectField.optional(),
  body_fr: bodyField.optional(),
  body_en: bodyField.optional(),
  /** Optional, both or neither ("" = none): without them Spanish readers get English. */
  subject_es: spanishSubject,
  body_es: spanishBody,
};
type ContentValue = MailTextFields & { template_id?: string | undefined };

/** Either a template, or the French and English texts (Spanish optional): not both, not neither. */
function checkContent(value: ContentValue, ctx: z.RefinementCtx) {
  if (value.template_id) {
    for (const field of TEXT_FIELDS) {
      if (value[field] !== undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "Give a template or texts, not both" });
    }
    return;
  }
  for (const field of ["subject_fr", "subject_en", "body_fr", "body_en"] as const) {
    if (value[field] === undefined)
      ctx.addIssue({ code: "custom", path: [field], message: "Required without a template" });
  }
  checkVariables(value, ctx);
  checkSpanishPair(value, ctx);
}

/** `POST /v1/send-mail`: a DRAFT campaign from a template or from texts, for an audience. */
export const campaignCreateBody = z
  .object({ ...content, audience: mailAudience })
  .strict()
  .superRefine(checkContent);
export type CampaignCreateBody = z.infer<typeof campaignCreateBody>;

/** `POST /v1/send-mail/send`: queues a DRAFT campaign, or creates and queues one in a step. */
export const campaignSendBody = z
  .object({ campaign_id: z.uuid().optional(), ...content, audience: mailAudience.optional() })
  .strict()
  .superRefine((value, ctx) => {
    if (value.campaign_id) {
      for (const field of ["template_id", ...TEXT_FIELDS, "audience"] as const) {
        if (value[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [field], message: "Not allowed with campaign_id" });
      }
      return;
    }
    if (!value.audience) ctx.addIssue({ code: "custom", path: ["audience"], message: "Required" });
    checkContent(value, ctx);
  });
export type CampaignSendBody = z.infer<typeof campaignSendBody>;

/**
 * `POST /v1/send-mail/test`: the draft (a campaign, a template or the texts being written) sent
 * only to the signed-in staff member, in their language, with their own values, marked as a test.
 */
export const campaignTestBody = z
  .object({ campaign_id: z.uuid().optional(), ...content })
  .strict()
  .superRefine((value, ctx) => {
    if (value.campaign_id) {
      for (const field of ["template_id", ...TEXT_FIELDS] as const) {
        if (value[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [field], message: "Not allowed with campaign_id" });
      }
      return;
    }
    checkContent(value, ctx);
  });
export type CampaignTestBody = z.infer<typeof campaignTestBody>;
export const campaignTestResponse = envelope(
  z.object({
    /** The address the test went to: the caller's own. */
    to: z.string(),
    subject: z.string(),
    /** False when the same test was already queued in the last minute (a double click). */
    queued: z.boolean(),
  }),
);
export type CampaignTestResponse = z.infer<typeof campaignTestResponse>;

export const campaignCountBody = z.object({ audience: mailAudience }).strict();
export const campaignCountResponse = envelope(z.object({ count: z.number().int() }));

export const campaignListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const campaignFilters = z
  .object({
    status: campaignStatus.optional(),
    /** Words of the French, English or Spanish subject. */
    search: z.string().trim().max(120).optional(),
  })
  .strict();
export type CampaignFilters = z.infer<typeof campaignFilters>;
/** `POST /v1/send-mail/pagination`. */
export const campaignPaginationBody = z
  .object({
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
    filters: campaignFilters.default({}),
  })
  .strict();
export type CampaignPaginationBody = z.infer<typeof campaignPaginationBody>;

export const campaignListResponse = envelope(z.object({ campaigns: z.array(mailCampaign), pagination }));
export type CampaignListResponse = z.infer<typeof campaignListResponse>;
export const campaignResponse = envelope(z.object({ campaign: mailCampaign }));
export type CampaignResponse = z.infer<typeof campaignResponse>;
