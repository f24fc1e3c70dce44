import { DEFAULT_LOCALE, LOCALES, type Locale } from "@parlons/contract";
import { Form, Input, Tabs } from "antd";
import type { Rule } from "antd/es/form";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { languageName } from "@/lib/format";
import { useLang } from "@/lib/use-locale";

/** `fr` → `Fr`: the end of a per-locale catalogue key (`courses:form.titleFr`). */
const localeKey = (locale: Locale) => `${locale[0]?.toUpperCase()}${locale.slice(1)}`;

/** A text of a form stored per locale (`title` → `title_fr`, `title_en`, `title_es`). */
export interface LocaleText {
  name: string;
  /** The catalogue key of its label without the locale (`courses:form.title` → `…titleEs`). */
  label: string;
  /** The locales where it must be given (French and English titles). */
  required?: readonly Locale[];
  /** The input of a locale (its `lang` set, so that spelling and voices follow it). */
  input: (locale: Locale) => ReactNode;
  /** Rules beyond "required". */
  rules?: Rule[];
  /** The form field of a locale when it is not `<name>_<locale>` (a plan's English name is `name`). */
  field?: (locale: Locale) => string;
  /** Help under the field. */
  extra?: string;
}

/** A title (of a course, lesson, event or plan): one line, required in French and English. */
export const titleText = (label: string, maxLength = 200, name = "title"): LocaleText => ({
  name,
  label,
  required: ["fr", "en"],
  input: (l) => <Input maxLength={maxLength} lang={l} />,
});

/** A text of several lines (a description, a lesson's text, a plan's features), optional. */
export const longText = (name: string, label: string, maxLength?: number, rows = 4): LocaleText => ({
  name,
  label,
  input: (l) => <Input.TextArea rows={rows} maxLength={maxLength} lang={l} />,
});

/**
 * The tab open in a form's locale tabs, and the handler that opens the tab of the first field a
 * refused save names (an empty English title in a hidden tab would otherwise go unseen).
 */
export function useLocaleTab(
  /** Fields of a locale not named `<name>_<locale>` (a plan's English `name`). */
  named: Record<string, Locale> = {},
) {
  const [tab, setTab] = useState<Locale>(DEFAULT_LOCALE);
  const showFirstError = ({ errorFields }: { errorFields: { name: (string | number)[] }[] }) => {
    const name = String(errorFields[0]?.name.at(-1) ?? "");
    const locale = named[name] ?? LOCALES.find((l) => name.endsWith(`_${l}`));
    if (locale) setTab(locale);
  };
  return { tab, setTab, showFirstError };
}

/**
 * One tab per locale of the list (fr, en, es) holding a form's texts in that locale. Every pane is
 * rendered (hidden ones too), so the form holds and sends every locale's fields; the tabs are
 * antd's (arrow keys move between them, each is a real tab with its language's name).
 */
export function LocaleTabs({ texts, tabs }: { texts: LocaleText[]; tabs: ReturnType<typeof useLocaleTab> }) {
  const { t } = useTranslation();
  const lang = useLang();
  const name = (locale: Locale) => {
    const text = languageName(locale, lang);
    return `${text.slice(0, 1).toLocaleUpperCase(lang)}${text.slice(1)}`;
  };
  return (
    <Tabs
      activeKey={tabs.tab}
      onChange={(key) => tabs.setTab(key as Locale)}
      aria-label={t("common:localeTabs.label")}
      items={LOCALES.map((locale) => ({
        key: locale,
        label: name(locale),
        forceRender: true,
        children: texts.map((text) => {
          const label = t(`${text.label}${localeKey(locale)}`);
          const required = text.required?.includes(locale) ?? false;
          return (
            <Form.Item
              key={text.name}
              name={text.field?.(locale) ?? `${text.name}_${locale}`}
              label={label}
              extra={text.extra}
              rules={[
                ...(required
                  ? [
                      {
                        required: true,
                        whitespace: true,
                        message: t("common:localeTabs.required", { field: label }),
                      },
                    ]
                  : []),
                ...(text.rules ?? []),
              ]}
            >
              {text.input(locale)}
            </Form.Item>
          );
        }),
      }))}
    />
  );
}
