import type { AudioSourceType, Setting, SettingUpdateBody, SiteLocale, VatScheme } from "@parlons/contract";

/** What the settings form edits: flat fields (antd form names), "" for an empty optional text. */
export interface SettingsFormValues {
  audio_source_type: AudioSourceType;
  audio_base_url: string;
  contact_email: string;
  support_url: string;
  default_locale: SiteLocale;
  registrations_open: boolean;
  staff_two_factor_required: boolean;
  seller_name: string;
  seller_address: string;
  seller_tax_id: string;
  seller_country: string;
  seller_vat_number: string;
  vat_scheme: VatScheme;
}

export function toFormValues(setting: Setting): SettingsFormValues {
  return {
    audio_source_type: setting.audio_source.type,
    audio_base_url: setting.audio_source.base_url ?? "",
    contact_email: setting.contact_email,
    support_url: setting.support_url ?? "",
    default_locale: setting.default_locale,
    registrations_open: setting.registrations_open,
    staff_two_factor_required: setting.staff_two_factor_required,
    seller_name: setting.seller.name,
    seller_address: setting.seller.address,
    seller_tax_id: setting.seller.tax_id,
    seller_country: setting.seller.country,
    seller_vat_number: setting.seller.vat_number,
    vat_scheme: setting.seller.vat_scheme,
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
    staff_two_factor_required: values.staff_two_factor_required,
    seller: {
      name: values.seller_name.trim(),
      address: values.seller_address.trim(),
      tax_id: values.seller_tax_id.trim(),
      country: values.seller_country,
      vat_number: values.seller_vat_number.replace(/\s+/g, "").toUpperCase(),
      vat_scheme: values.vat_scheme,
    },
  };
}

/** The API's 422 field names → the form's. */
export const FIELD_ALIASES: Record<string, keyof SettingsFormValues> = {
  "audio_source.base_url": "audio_base_url",
  "audio_source.type": "audio_source_type",
  audio_source: "audio_source_type",
  "seller.name": "seller_name",
  "seller.address": "seller_address",
  "seller.tax_id": "seller_tax_id",
  "seller.country": "seller_country",
  "seller.vat_number": "seller_vat_number",
  "seller.vat_scheme": "vat_scheme",
};

export const FORM_FIELDS: (keyof SettingsFormValues)[] = [
  "audio_source_type",
  "audio_base_url",
  "contact_email",
  "support_url",
  "default_locale",
  "registrations_open",
  "staff_two_factor_required",
  "seller_name",
  "seller_address",
  "seller_tax_id",
  "seller_country",
  "seller_vat_number",
  "vat_scheme",
];
