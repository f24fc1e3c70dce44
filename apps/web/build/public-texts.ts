import { readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * What the pages without antd (public header and footer, home, course page, not-found) show: per
 * namespace, `true` for all of it, else its top-level keys. `src/locales/public-texts.test.ts`
 * checks that those pages ask for nothing else.
 */
export const PUBLIC_TEXTS: Record<string, true | string[]> = {
  common: true,
  // what a page without antd can meet: the general answers and those of reading a course; the
  // codes of staff screens, checkout and sign-in come with the rest (an unknown code falls back to
  // the server's message, which speaks the reader's language too)
  errors: [
    "generic",
    "network",
    "somethingWrong",
    "wait",
    "TIMEOUT",
    "BAD_REQUEST",
    "VALIDATION_FAILED",
    "UNAUTHENTICATED",
    "TOKEN_EXPIRED",
    "TOKEN_INVALID",
    "SESSION_REVOKED",
    "FORBIDDEN",
    "NOT_FOUND",
    "CONFLICT",
    "RATE_LIMITED",
    "PAYLOAD_TOO_LARGE",
    "PROVIDER_ERROR",
    "INTERNAL_ERROR",
    "PREMIUM_REQUIRED",
    "LESSON_NOT_OPEN_YET",
  ],
  site: ["home"],
  courses: [
    "loading",
    "level",
    "levelValue",
    "learn",
    "lessonCount_one",
    "lessonCount_other",
    "lessonsLabel",
    "durationLabel",
    "inactive",
    "start",
    "continue",
    "popular",
    "lessons",
    "upgrade",
    "pace",
    "certificate",
    "offers",
  ],
};

const VIRTUAL = "virtual:public-texts";
const RESOLVED = `\0${VIRTUAL}/`;

/** The public texts of one language, picked from its JSON files at build time. */
export function pickPublicTexts(localesDir: string, lang: string): Record<string, unknown> {
  const texts: Record<string, unknown> = {};
  for (const [ns, keys] of Object.entries(PUBLIC_TEXTS)) {
    const all = JSON.parse(readFileSync(path.join(localesDir, lang, `${ns}.json`), "utf8")) as Record<
      string,
      unknown
    >;
    texts[ns] = keys === true ? all : Object.fromEntries(keys.map((k) => [k, all[k]]));
  }
  return texts;
}

/**
 * `virtual:public-texts`, imported by `src/locales/<lang>/public.ts`: the first texts a page in
 * that language loads (the rest come with the first antd page or dialog), the language read from
 * the importing folder. A module of its own, not named imports of the JSON files: a JSON module
 * shared with the full texts' chunk would be emitted whole in a chunk both load.
 */
export function publicTexts(localesDir: string): Plugin {
  return {
    name: "parlons-public-texts",
    resolveId(id, importer) {
      if (id !== VIRTUAL || !importer) return undefined;
      return `${RESOLVED}${path.basename(path.dirname(importer))}`;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return undefined;
      const lang = id.slice(RESOLVED.length);
      for (const ns of Object.keys(PUBLIC_TEXTS))
        this.addWatchFile(path.join(localesDir, lang, `${ns}.json`));
      return `export default ${JSON.stringify(pickPublicTexts(localesDir, lang))};`;
    },
  };
}
