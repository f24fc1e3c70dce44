import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { recordPageHead } from "./page-head";

/**
 * Sets `document.title` through the template "%s · Parlons", and the meta description when the
 * page has its own (a course's); on the server, records both for the HTML head.
 */
export function usePageTitle(title: string | null | undefined, description?: string): void {
  const { t } = useTranslation();
  const fullTitle = title ? t("common:titleTemplate", { title }) : t("common:homeTitle");
  const text = description || t("common:meta.description");
  recordPageHead({ title: fullTitle, description: text });
  useEffect(() => {
    document.title = fullTitle;
    document.querySelector('meta[name="description"]')?.setAttribute("content", text);
  }, [fullTitle, text]);
}
