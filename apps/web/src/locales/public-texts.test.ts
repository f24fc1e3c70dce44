import { readFileSync } from "node:fs";
import { LOCALES } from "@parlons/contract";
import { describe, expect, it } from "vitest";
// biome-ignore lint/style/noRestrictedImports: the build plugin lives in apps/web/build, outside the @/ alias
import { PUBLIC_TEXTS, pickPublicTexts, SHELL_TEXTS } from "../../build/public-texts";

/** The modules of the pages that load no antd: they have only the public texts at hand. */
const PLAIN_MODULES = [
  "app/app.tsx",
  "app/guards.tsx",
  "app/layouts/public-layout.tsx",
  "app/locale-root.tsx",
  "app/route-error.tsx",
  "components/coming-soon.tsx",
  "components/forbidden.tsx",
  "components/lang-switch.tsx",
  "components/not-found.tsx",
  "features/courses/components/course-card.tsx",
  "features/courses/components/lesson-list.tsx",
  "features/courses/components/popular-courses.tsx",
  "features/courses/components/preview-banner.tsx",
  "features/courses/pages/course-page.tsx",
  "features/site/pages/home-page.tsx",
  "features/site/pages/legal-page.tsx",
  "components/load-error.tsx",
  "lib/api-error.ts",
  "lib/api.ts",
  "lib/use-page-title.ts",
];

/** The signed-in shell's own modules: they have the public and the shell's texts at hand. */
const SHELL_MODULES = [
  "app/layouts/app-layout.tsx",
  "app/layouts/app-menu.tsx",
  "components/antd-outlet.tsx",
  "components/app-notices.tsx",
  "components/offline-banner.tsx",
  "components/toaster.tsx",
  "components/update-prompt.tsx",
  "features/downloads/components/download-button.tsx",
  "features/notifications/components/notification-bell.tsx",
];

const src = new URL("../", import.meta.url);

/** The `ns:topKey` texts the files ask for with t(). */
function askedBy(files: string[]): Set<string> {
  const asked = new Set<string>();
  for (const file of files) {
    const code = readFileSync(new URL(file, src), "utf8");
    for (const m of code.matchAll(/\bt\(\s*["`]([a-z]+):([A-Za-z0-9_]+)/g)) asked.add(`${m[1]}:${m[2]}`);
  }
  return asked;
}

const covered = (key: string, ...parts: Record<string, true | string[]>[]) => {
  const [ns = "", top = ""] = key.split(":");
  return parts.some((part) => {
    const picked = part[ns];
    return picked === true || picked?.some((k) => k === top || k.startsWith(`${top}_`));
  });
};

describe("public texts", () => {
  it("cover every text the pages without antd ask for", () => {
    const asked = askedBy(PLAIN_MODULES);
    expect(asked.size).toBeGreaterThan(20);
    expect([...asked].filter((key) => !covered(key, PUBLIC_TEXTS))).toEqual([]);
  });

  it("with the shell's, cover every text the signed-in shell asks for", () => {
    const asked = askedBy(SHELL_MODULES);
    expect(asked.size).toBeGreaterThan(8);
    expect([...asked].filter((key) => !covered(key, PUBLIC_TEXTS, SHELL_TEXTS))).toEqual([]);
    const dir = new URL("./", import.meta.url).pathname;
    for (const lang of LOCALES) {
      const texts = pickPublicTexts(dir, lang, SHELL_TEXTS) as Record<string, Record<string, unknown>>;
      expect(texts.app?.openMenu, lang).toEqual(expect.any(String));
      expect(texts.notifications?.unread_other ?? texts.notifications?.unread, lang).toBeDefined();
      // not the settings drawer's, which comes with antd
      expect(texts.app?.drawerTitle, lang).toBeUndefined();
    }
  });

  it("are picked whole from the language files, in every language", () => {
    const dir = new URL("./", import.meta.url).pathname;
    const fr = pickPublicTexts(dir, "fr") as Record<string, Record<string, unknown>>;
    expect(Object.keys(fr).sort()).toEqual(Object.keys(PUBLIC_TEXTS).sort());
    for (const lang of LOCALES) {
      const texts = pickPublicTexts(dir, lang) as Record<string, Record<string, unknown>>;
      for (const [ns, keys] of Object.entries(PUBLIC_TEXTS)) {
        if (keys === true) continue;
        for (const key of keys) expect(texts[ns]?.[key], `${lang} ${ns}:${key}`).toBeDefined();
      }
    }
    expect(fr.courses?.form).toBeUndefined();
  });
});
