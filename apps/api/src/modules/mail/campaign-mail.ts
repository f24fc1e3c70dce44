import { langPrefix, type RenderedMail, renderMail, type Speak, toLocale } from "@parlons/contract";
import type { DeliveryVariables } from "../../db/schema/mail";
import { type UnsubscribeParts, withUnsubscribeLink } from "./preferences-service";
import { textsIn } from "./transactional";

/** The texts of a campaign (or of a draft being tested). */
export interface CampaignTexts {
  subjectFr: string;
  subjectEn: string;
  bodyFr: string;
  bodyEn: string;
  /** "" when there is no Spanish text. */
  subjectEs: string;
  bodyEs: string;
}

/**
 * One recipient's mail of a campaign: the texts in their language with their values, then the
 * unsubscribe link and the one-click headers (news). The worker's deliveries and the staff's test
 * send both use it, so a test looks exactly like what the learners will get.
 */
export function composeCampaignMail(
  texts: CampaignTexts,
  to: { email: string; lang: Speak; variables: DeliveryVariables },
  publicUrl: string,
  unsubscribe: UnsubscribeParts,
): RenderedMail & { headers: Record<string, string> } {
  const site = `${publicUrl}${langPrefix(toLocale(to.lang))}`;
  const rendered = renderMail(
    textsIn(
      {
        name: "",
        subject_fr: texts.subjectFr,
        subject_en: texts.subjectEn,
        body_fr: texts.bodyFr,
        body_en: texts.bodyEn,
        subject_es: texts.subjectEs,
        body_es: texts.bodyEs,
      },
      to.lang,
    ),
    { ...to.variables, email: to.email, site_url: site, action_url: site },
  );
  return {
    ...withUnsubscribeLink(rendered, unsubscribe.pageUrl, to.lang, "news"),
    headers: unsubscribe.headers,
  };
}
