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
    "draft",
    "preview",
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

/**
 * What the signed-in shell (app/layouts/app-layout.tsx, its menu and bell) shows beyond the public
 * texts: a page drawn without antd inside the shell (the course page) needs no more. The pages
 * built with antd load every text with their providers.
 */
export const SHELL_TEXTS: Record<string, true | string[]> = {
  app: ["menu", "expand", "collapse", "openMenu", "closeMenu", "settings", "plan"],
  notifications: ["title", "button", "unread"],
  // the course page's download for offline use (signed-in learners only)
  courses: ["offline"],
};

const PARTS = { "public-texts": PUBLIC_TEXTS, "shell-texts": SHELL_TEXTS } as const;
type PartName = keyof typeof PARTS;

/** The public texts of one language, picked from its JSON files at build time. */
export function pickPublicTexts(
  localesDir: string,
  lang: string,
  picked: Record<string, true | string[]> = PUBLIC_TEXTS,
): Record<string, unknown> {
  const texts: Record<string, unknown> = {};
  for (const [ns, keys] of Object.entries(picked)) {
    const all = JSON.parse(readFileSync(path.join(localesDir, lang, `${ns}.json`), "utf8")) as Record<
      string,
      unknown
    >;
    // a key with plural forms (`unread` → `unread_one`, `unread_other`) brings them all
    texts[ns] =
      keys === true
        ? all
        : Object.fromEntries(
            Object.entries(all).filter(([k]) => keys.some((key) => k === key || k.startsWith(`${key}_`))),
          );
  }
  return texts;
}

/**
 * `virtual:public-texts` and `virtual:shell-texts`, imported by `src/locales/<lang>/public.ts` and
 * `shell.ts`: the first texts a page in that language loads, and those the signed-in shell adds
 * (the rest come with the first antd page or dialog), the language read from the importing
 * folder. Modules of their own, not named imports of the JSON files: a JSON module shared with the
 * full texts' chunk would be emitted whole in a chunk both load.
 */
export function publicTexts(localesDir: string): Plugin {
  const prefix = "\0virtual:";
  return {
    name: "parlons-public-texts",
    resolveId(id, importer) {
      const name = id.startsWith("virtual:") ? id.slice("virtual:".length) : "";
      if (!(name in PARTS) || !importer) return undefined;
      return `${prefix}${name}/${path.basename(path.dirname(importer))}`;
    },
    load(id) {
      if (!id.startsWith(prefix)) return undefined;
      const [name = "", lang = ""] = id.slice(prefix.length).split("/");
      const picked = PARTS[name as PartName];
      if (!picked) return undefined;
      for (const ns of Object.keys(picked)) this.addWatchFile(path.join(localesDir, lang, `${ns}.json`));
      return `export default ${JSON.stringify(pickPublicTexts(localesDir, lang, picked))};`;
    },
  };
}
