export {
  DEFAULT_LANG,
  isLang,
  LANGS,
  type Lang,
  langFromPath,
  localizePath,
  stripLang,
  switchLangPath,
} from "@parlons/contract";
