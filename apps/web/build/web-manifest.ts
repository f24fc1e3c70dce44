// the contract's files themselves, not "@parlons/contract": Vite loads its config with Node, which
// cannot run the package's TypeScript entry; relative imports are bundled into the config instead

import type { Plugin } from "vite";
import type { ManifestOptions } from "vite-plugin-pwa";
import { DEFAULT_LOCALE, LOCALES, type Locale, langPrefix } from "../../../packages/contract/src/locales";
import { manifestPath } from "../../../packages/contract/src/web-routes";

const THEME = "#2f54eb";

/**
 * The installable app's words in each language (typed by `Locale`: a language added to `LOCALES`
 * is pointed at here by the compiler). `short_name` is the name under the home-screen icon.
 */
const TEXTS: Record<Locale, { name: string; short_name: string; description: string }> = {
  fr: {
    name: "Parlons · Cours de langues audio",
    short_name: "Parlons",
    description: "Apprenez les langues avec des cours audio, même hors ligne.",
  },
  en: {
    name: "Parlons · Audio language courses",
    short_name: "Parlons",
    description: "Learn languages with audio courses, offline too.",
  },
  es: {
    name: "Parlons · Cursos de idiomas en audio",
    short_name: "Parlons",
    description: "Aprende idiomas con cursos en audio, también sin conexión.",
  },
};

/**
 * The web app manifest of one language, its start page that language's home. The default
 * language's is at /manifest.webmanifest (vite-plugin-pwa writes it and links it in index.html);
 * the others' at /manifest.<code>.webmanifest (`localeManifests`), each page linking its own
 * (`manifestPath`). One `id` for all: it is one app, whichever language installed it.
 */
export function webManifest(lang: Locale = DEFAULT_LOCALE): Partial<ManifestOptions> {
  const t = TEXTS[lang];
  return {
    id: "/",
    name: t.name,
    short_name: t.short_name,
    description: t.description,
    lang,
    dir: "ltr",
    start_url: langPrefix(lang) || "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    theme_color: THEME,
    background_color: "#ffffff",
    categories: ["education"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}

/** Emits the manifest of every language other than the default next to the default's. */
export function localeManifests(): Plugin {
  return {
    name: "parlons-locale-manifests",
    apply: "build",
    generateBundle() {
      if (this.environment?.config.build.ssr) return;
      for (const lang of LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
        this.emitFile({
          type: "asset",
          fileName: manifestPath(lang).slice(1),
          source: `${JSON.stringify(webManifest(lang), null, 2)}\n`,
        });
      }
    },
  };
}
