import { TRANSACTIONAL_SLUGS, unknownVariables, variablesIn } from "@parlons/contract";
import type { FormRule } from "antd";
import type { TFunction } from "i18next";

/**
 * The rules of a subject or body field, the same checks as the API's (contract): required (or,
 * for an optional language, required when `pairedWith`, its other text, is given) and only known
 * {{variables}}; a `body` of a mail Parlons sends itself (the form's `slug` is transactional) must
 * keep `{{action_url}}`.
 */
export function textRules(t: TFunction, body: boolean, pairedWith?: string): FormRule[] {
  return [
    pairedWith
      ? ({ getFieldValue }) => ({
          validator: async (_rule, value: string | undefined) => {
            if (!value?.trim() && String(getFieldValue(pairedWith) ?? "").trim())
              throw new Error(t("mail:templates.form.pairEs"));
          },
        })
      : { required: true, whitespace: true, message: t("mail:templates.form.required") },
    {
      validator: async (_rule, value: string | undefined) => {
        const unknown = unknownVariables(value ?? "");
        if (unknown.length)
          throw new Error(t("mail:templates.form.unknownVariable", { names: unknown.join(", ") }));
      },
    },
    ...(body
      ? [
          ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
            validator: async (_rule: unknown, value: string | undefined) => {
              const slug = String(getFieldValue("slug") ?? "");
              if (
                (TRANSACTIONAL_SLUGS as readonly string[]).includes(slug) &&
                value?.trim() &&
                !variablesIn(value).includes("action_url")
              ) {
                throw new Error(t("mail:templates.form.needsActionUrl"));
              }
            },
          }),
        ]
      : []),
  ];
}
