import { Select, Typography } from "antd";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { countryOptions } from "@/lib/countries";
import { useLang } from "@/lib/use-locale";

/**
 * The country the learner lives in, declared at checkout: their invoice charges its VAT (the
 * payment's country, when the provider reports one, is checked against it). Prefilled from the
 * browser's language; searchable by name.
 */
export function CountryField({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (country: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const id = useId();
  return (
    <div>
      <label htmlFor={id}>{t("billing:country.label")}</label>
      <Select
        id={id}
        showSearch={{ optionFilterProp: "label" }}
        allowClear
        value={value}
        onChange={(next?: string) => onChange(next ?? undefined)}
        options={countryOptions(lang)}
        placeholder={t("billing:country.placeholder")}
        style={{ width: "100%", maxWidth: 360, display: "block" }}
        data-testid="checkout-country"
        aria-describedby={`${id}-hint`}
      />
      <Typography.Text type="secondary" id={`${id}-hint`}>
        {t("billing:country.hint")}
      </Typography.Text>
    </div>
  );
}
