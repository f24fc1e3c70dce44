import type { EmailTemplate } from "@parlons/contract";
import type { TFunction } from "i18next";

/**
 * A template's name in the reader's language: the mails Parlons sends itself (transactional
 * slugs, seeded with an English name) are named by the catalogue; staff's own templates keep the
 * name staff gave them.
 */
export function templateName(
  t: TFunction,
  template: Pick<EmailTemplate, "slug" | "name" | "transactional">,
): string {
  if (!template.transactional) return template.name;
  return t(`mail:templates.builtInNames.${template.slug}`, { defaultValue: template.name });
}
