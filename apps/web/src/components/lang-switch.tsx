import { Link, useLocation } from "react-router";
import { saveLang } from "../lib/cookie";
import { ownLanguageName } from "../lib/format";
import { loadLanguage } from "../lib/i18n";
import { DEFAULT_LANG, LANGS, type Lang, langFromPath, switchLangPath } from "../lib/locale-path";

/**
 * The language switch: a link to the same page in each other language (from the locale folders),
 * named in its own language, remembered in the `i18n_redirected` cookie. The first one carries
 * `data-testid="lang-switch"`.
 */
export function LangSwitch() {
  const location = useLocation();
  const current = langFromPath(location.pathname);
  const others = [DEFAULT_LANG, ...LANGS.filter((l) => l !== DEFAULT_LANG)].filter((l) => l !== current);
  return (
    <span className="lang-switches">
      {others.map((target, index) => (
        <LangLink key={target} target={target} first={index === 0} />
      ))}
    </span>
  );
}

function LangLink({ target, first }: { target: Lang; first: boolean }) {
  const location = useLocation();
  const href = switchLangPath(location.pathname + location.search + location.hash, target);
  const name = ownLanguageName(target);
  // the other language's texts are their own chunk: fetch them as soon as the switch is in reach
  const preload = () => void loadLanguage(target).catch(() => undefined);
  return (
    <Link
      to={href}
      lang={target}
      hrefLang={target}
      className="lang-switch"
      aria-label={`${target.toUpperCase()} – ${name}`}
      title={name}
      data-testid={first ? "lang-switch" : `lang-switch-${target}`}
      onMouseEnter={preload}
      onFocus={preload}
      onClick={() => saveLang(target)}
    >
      {target.toUpperCase()}
    </Link>
  );
}
