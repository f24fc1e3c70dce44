import {
  checkCdnBaseUrl,
  isEmail,
  isWebUrl,
  type Setting,
  VAT_RATES_DATE,
  VAT_SCHEMES,
} from "@parlons/contract";
import { App, Button, Divider, Form, Input, Radio, Select, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { SwitchItem } from "@/components/switch-item";
import { errorText } from "@/lib/api-error";
import { countryOptions } from "@/lib/countries";
import { applyFieldErrors, checkRule } from "@/lib/form-rules";
import { useLang } from "@/lib/use-locale";
import { useSaveSettings } from "../api/settings-api";
import {
  FIELD_ALIASES,
  FORM_FIELDS,
  type SettingsFormValues,
  toFormValues,
  toUpdateBody,
} from "../lib/settings-form-values";

/** Edits the settings object: audio source, contact, support link, default language, sign-ups. */
export function SettingsForm({ setting }: { setting: Setting }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<SettingsFormValues>();
  const save = useSaveSettings();
  const source = Form.useWatch("audio_source_type", form) ?? setting.audio_source.type;

  const submit = (values: SettingsFormValues) => {
    save.mutate(toUpdateBody(values), {
      onSuccess: () => void message.success(t("settings:saved")),
      onError: (error) => {
        if (!applyFieldErrors(form, error, FORM_FIELDS, FIELD_ALIASES)) void message.error(errorText(error));
      },
    });
  };

  return (
    <Form<SettingsFormValues>
      form={form}
      name="settings"
      layout="vertical"
      requiredMark="optional"
      initialValues={toFormValues(setting)}
      onFinish={submit}
      data-testid="settings-form"
      style={{ maxWidth: 640 }}
    >
      <Typography.Title level={2} className="card-heading">
        {t("settings:sections.audio")}
      </Typography.Title>
      <Form.Item
        name="audio_source_type"
        label={t("settings:fields.audioSource")}
        extra={t(source === "cdn" ? "settings:hints.cdn" : "settings:hints.server")}
      >
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={[
            { value: "server", label: t("settings:audioSource.server") },
            { value: "cdn", label: t("settings:audioSource.cdn") },
          ]}
          data-testid="settings-audio-source"
        />
      </Form.Item>
      {source === "cdn" && (
        <Form.Item
          name="audio_base_url"
          label={t("settings:fields.cdnBaseUrl")}
          extra={t("settings:hints.cdnBaseUrl")}
          required
          rules={[
            checkRule((value) => {
              const problem = checkCdnBaseUrl(value?.trim());
              return problem && t(`settings:errors.${problem}`);
            }),
          ]}
        >
          <Input placeholder="https://cdn.example.com" inputMode="url" data-testid="settings-cdn-url" />
        </Form.Item>
      )}

      <Divider />
      <Typography.Title level={2} className="card-heading">
        {t("settings:sections.site")}
      </Typography.Title>
      <Form.Item
        name="contact_email"
        label={t("settings:fields.contactEmail")}
        extra={t("settings:hints.contactEmail")}
        required
        rules={[checkRule((value) => !isEmail(value) && t("settings:errors.email"))]}
      >
        <Input type="email" autoComplete="off" inputMode="email" data-testid="settings-contact-email" />
      </Form.Item>
      <Form.Item
        name="support_url"
        label={t("settings:fields.supportUrl")}
        extra={t("settings:hints.supportUrl")}
        rules={[
          checkRule((value) =>
            value?.trim() && !isWebUrl(value) ? t("settings:errors.url.invalid") : undefined,
          ),
        ]}
      >
        <Input placeholder="https://" inputMode="url" />
      </Form.Item>
      <Form.Item
        name="default_locale"
        label={t("settings:fields.defaultLocale")}
        extra={t("settings:hints.defaultLocale")}
      >
        <Select
          options={[
            { value: "fr", label: t("settings:locales.fr") },
            { value: "en", label: t("settings:locales.en") },
          ]}
        />
      </Form.Item>
      <SwitchItem
        name="registrations_open"
        label={t("settings:fields.registrationsOpen")}
        extra={t("settings:hints.registrationsOpen")}
        testId="settings-registrations"
      />
      <SwitchItem
        name="staff_two_factor_required"
        label={t("settings:fields.staffTwoFactor")}
        extra={t("settings:hints.staffTwoFactor")}
        testId="settings-staff-two-factor"
      />
      <Form.Item
        name="seller_name"
        label={t("settings:fields.sellerName")}
        extra={t("settings:hints.seller")}
        rules={[{ required: true, whitespace: true, message: t("settings:errors.sellerName") }]}
      >
        <Input maxLength={200} data-testid="settings-seller-name" />
      </Form.Item>
      <Form.Item name="seller_address" label={t("settings:fields.sellerAddress")}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={1000} />
      </Form.Item>
      <Form.Item name="seller_tax_id" label={t("settings:fields.sellerTaxId")}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="seller_country" label={t("settings:fields.sellerCountry")}>
        <Select showSearch={{ optionFilterProp: "label" }} options={countryOptions(lang)} />
      </Form.Item>
      <Form.Item
        name="vat_scheme"
        label={t("settings:fields.vatScheme")}
        extra={t("settings:hints.vatScheme", { date: VAT_RATES_DATE })}
      >
        <Radio.Group
          options={VAT_SCHEMES.map((scheme) => ({
            value: scheme,
            label: t(`settings:vatSchemes.${scheme}`),
          }))}
          data-testid="settings-vat-scheme"
        />
      </Form.Item>
      <Form.Item
        name="seller_vat_number"
        label={t("settings:fields.sellerVatNumber")}
        extra={t("settings:hints.sellerVatNumber")}
      >
        <Input maxLength={20} data-testid="settings-vat-number" />
      </Form.Item>

      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="settings-save">
        {t("settings:save")}
      </Button>
    </Form>
  );
}
