import type { CampaignTestBody } from "@parlons/contract";
import type { AudienceValues } from "./audience";

/** The send form's values: the message (a template or texts written here) and its audience. */
export interface SendValues extends AudienceValues {
  source: "template" | "custom";
  template_id?: string;
  subject_fr?: string;
  subject_en?: string;
  body_fr?: string;
  body_en?: string;
  subject_es?: string;
  body_es?: string;
}

/** The message part of a send or a test: a template, or the texts written here. */
export function contentOf(v: Partial<SendValues>): Omit<CampaignTestBody, "campaign_id"> {
  return v.source === "custom"
    ? {
        subject_fr: v.subject_fr,
        subject_en: v.subject_en,
        body_fr: v.body_fr,
        body_en: v.body_en,
        subject_es: v.subject_es?.trim() ?? "",
        body_es: v.body_es?.trim() ?? "",
      }
    : { template_id: v.template_id };
}
