import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { reloadOnce } from "./chunk-reload";
import { DEFAULT_LANG, LANGS, type Lang, toLocale } from "./locale-path";

/** Every namespace of one language. */
export type Texts = Record<string, Record<string, unknown>>;

/**
 * The texts come in chunks: per language (a page loads its own language only, the other one when
 * the visitor switches), and per part: "public" (what the pages without antd show: header,
 * footer, home, course page; picked at build time by build/public-texts.ts, the server links it
 * in the head), "shell" (what the signed-in shell adds: its menu, bell and plan tag) and "rest"
 * (all of them, for the antd-built pages and dialogs, which load it with their own chunk). Once a
 * part was wanted, a language switch loads it too.
 */
type Part = "public" | "shell" | "rest";
type Loader = () => Promise<{ default: Texts }>;
/** One chunk per language folder and part (`locales/<code>/public.ts`, `locales/<code>/index.ts`). */
const chunks: Record<Part, Record<string, Loader>> = {
  public: import.meta.glob<{ default: Texts }>("../locales/*/public.ts"),
  shell: import.meta.glob<{ default: Texts }>("../locales/*/shell.ts"),
  rest: import.meta.glob<{ default: Texts }>("../locales/*/index.ts"),
};
const loader = (lang: Lang, part: Part): Loader | undefined =>
  chunks[part][`../locales/${lang}/${part === "rest" ? "index" : part}.ts`];
/** A namespace of each part, to tell whether the part is there. */
const witness: Record<Part, (typeof NAMESPACES)[number]> = { public: "common", shell: "app", rest: "auth" };
const loading = new Map<string, Promise<void>>();
let shellWanted = false;
let restWanted = false;

function addTexts(lang: Lang, texts: Texts): void {
  for (const [ns, bundle] of Object.entries(texts)) i18n.addResourceBundle(lang, ns, bundle, true, true);
}

function parts(): Part[] {
  if (restWanted) return ["public", "rest"];
  return shellWanted ? ["public", "shell"] : ["public"];
}

function hasTexts(lang: Lang): boolean {
  return parts().every((part) => i18n.hasResourceBundle(lang, witness[part]));
}

function loadPart(lang: Lang, part: Part): Promise<void> {
  if (i18n.hasResourceBundle(lang, witness[part])) return Promise.resolve();
  const key = `${lang}:${part}`;
  let pending = loading.get(key);
  if (!pending) {
    const load = loader(lang, part);
    if (!load) return Promise.reject(new Error(`no texts for ${lang}`));
    pending = load().then(
      (module) => addTexts(lang, module.default),
      (error: unknown) => {
        loading.delete(key);
        throw error;
      },
    );
    loading.set(key, pending);
  }
  return pending;
}

const NAMESPACES = [
  "common",
  "auth",
  "errors",
  "site",
  "app",
  "billing",
  "courses",
  "player",
  "review",
  "practice",
  "habit",
  "settings",
  "mail",
  "events",
  "users",
  "notifications",
  "audit",
  "certificates",
  "analytics",
] as const;

/** `texts`: languages already at hand (the server renderer bundles both). */
export function initI18n(lang: Lang, texts: Partial<Record<Lang, Texts>> = {}): typeof i18n {
  if (i18n.isInitialized) return i18n;
  void i18n.use(initReactI18next).init({
    resources: {},
    lng: lang,
    fallbackLng: DEFAULT_LANG,
    supportedLngs: [...LANGS],
    ns: [...NAMESPACES],
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  for (const [l, t] of Object.entries(texts)) addTexts(l as Lang, t);
  return i18n;
}

/** Loads a language's texts (once): the public part, and the rest once it was wanted. */
export function loadLanguage(lang: Lang): Promise<void> {
  return Promise.all(parts().map((part) => loadPart(lang, part))).then(() => undefined);
}

/** The texts of the signed-in shell, for the current language and any later one. */
export function loadShellTexts(): Promise<void> {
  shellWanted = true;
  return loadLanguage(toLocale(i18n.language));
}

/** The texts of the antd-built pages and dialogs, for the current language and any later one. */
export function loadAllTexts(): Promise<void> {
  restWanted = true;
  return loadLanguage(toLocale(i18n.language));
}

/**
 * Switches the UI language: at once when its texts are loaded, else once they are (the locale
 * root renders nothing until `i18n.language` matches its URL).
 */
export function setLanguage(lang: Lang): void {
  if (i18n.language === lang) return;
  if (hasTexts(lang)) void i18n.changeLanguage(lang);
  else {
    loadLanguage(lang).then(
      () => i18n.changeLanguage(lang),
      // a stale deploy's chunk is gone: reload once to get the new one (spec §8)
      () => reloadOnce(),
    );
  }
}

export { i18n };
