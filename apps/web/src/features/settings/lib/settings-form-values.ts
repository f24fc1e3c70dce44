import type { AudioSourceType, Setting, SettingUpdateBody, SiteLocale } from "@parlons/contract";

/** What the settings form edits: flat fields (antd form names), "" for an empty optional text. */
export interface SettingsFormValues {
  audio_source_type: AudioSourceType;
  audio_base_url: string;
  contact_email: string;
  support_url: string;
  default_locale: SiteLocale;
  registrations_open: boolean;
}

export function toFormValues(setting: Setting): SettingsFormValues {
  return {
    audio_source_type: setting.audio_source.type,
    audio_base_url: setting.audio_source.base_url ?? "",
    contact_email: setting.contact_email,
    support_url: setting.support_url ?? "",
    default_locale: setting.default_locale,
    registrations_open: setting.registrations_open,
  };
}

/** Body of `POST /v1/settings`: every field (the server records only what changed). */
export function toUpdateBody(values: SettingsFormValues): SettingUpdateBody {
  const cdn = values.audio_source_type === "cdn";
  return {
    audio_source: cdn ? { type: "cdn", base_url: values.audio_base_url.trim() } : { type: "server" },
    contact_email: values.contact_email.trim(),
    support_url: values.support_url.trim() || null,
    default_locale: values.default_locale,
    registrations_open: values.registrations_open,
  };
}

/** The API's 422 field names → the form's. */
export const FIELD_ALIASES: Record<string, keyof SettingsFormValues> = {
  "audio_source.base_url": "audio_base_url",
  "audio_source.type": "audio_source_type",
  audio_source: "audio_source_type",
};

export const FORM_FIELDS: (keyof SettingsFormValues)[] = [
  "audio_source_type",
  "audio_base_url",
  "contact_email",
  "support_url",
  "default_locale",
  "registrations_open",
];
