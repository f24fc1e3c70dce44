export {
  DEFAULT_LANG,
  isLang,
  LANGS,
  type Lang,
  langFromPath,
  localizePath,
  stripLang,
  switchLangPath,
  toLocale,
} from "@parlons/contract";
