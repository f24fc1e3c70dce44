import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { saveLang } from "../lib/cookie";
import { langFromPath, switchLangPath } from "../lib/locale-path";

/** EN/FR switch: same page in the other language, remembered in the `i18n_redirected` cookie. */
export function LangSwitch() {
  const { t } = useTranslation();
  const location = useLocation();
  const target = langFromPath(location.pathname) === "fr" ? "en" : "fr";
  const href = switchLangPath(location.pathname + location.search + location.hash, target);
  return (
    <Link
      to={href}
      lang={target}
      hrefLang={target}
      className="lang-switch"
      aria-label={`${t("common:lang.short")} – ${t("common:lang.switchTo")}`}
      title={t("common:lang.switchTo")}
      data-testid="lang-switch"
      onClick={() => saveLang(target)}
    >
      {t("common:lang.short")}
    </Link>
  );
}
