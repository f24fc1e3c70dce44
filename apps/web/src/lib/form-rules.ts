import { checkPassword, isEmail } from "@parlons/contract";
import type { FormInstance, FormRule } from "antd";
import type { TFunction } from "i18next";
import { ApiError } from "./api-error";

/** Spec §5 password rules, shared with the API through the contract. */
export function passwordRules(t: TFunction): FormRule[] {
  return [
    {
      required: true,
      validator: async (_rule, value: string | undefined) => {
        const problem = checkPassword(value);
        if (problem) throw new Error(t(`auth:${problem}`));
      },
    },
  ];
}

/** Spec §5: signup email is required and valid, message `forgot.email_validation`. */
export function emailRules(t: TFunction): FormRule[] {
  return [
    {
      required: true,
      validator: async (_rule, value: string | undefined) => {
        if (!isEmail(value)) throw new Error(t("auth:forgot.email_validation"));
      },
    },
  ];
}

/** A rule from a check that returns what is wrong with the value (its message), or nothing. */
export function checkRule(check: (value: string | undefined) => string | false | null | undefined): FormRule {
  return {
    validator: async (_rule, value: string | undefined) => {
      const problem = check(value);
      if (problem) throw new Error(problem);
    },
  };
}

export function confirmRule(t: TFunction, field: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: string | undefined) => {
      if (!value || value !== getFieldValue(field)) throw new Error(t("auth:reset.mismatch"));
    },
  });
}

/**
 * The one mapper from an API error's field messages (a 422's `errors`) to antd form fields: puts
 * them on the fields of `fieldNames` they name (every field they name when it is left out).
 * Returns true when at least one field received a message (otherwise the caller shows a toast).
 */
export function applyFieldErrors(
  form: FormInstance,
  error: unknown,
  fieldNames?: readonly string[],
  aliases: Record<string, string> = {},
): boolean {
  if (!(error instanceof ApiError) || !error.errors) return false;
  const known = fieldNames && new Set(fieldNames);
  const fields = Object.entries(error.errors)
    .map(([name, errors]) => ({ name: aliases[name] ?? name, errors }))
    .filter((field) => !known || known.has(field.name));
  form.setFields(fields);
  return fields.length > 0;
}
