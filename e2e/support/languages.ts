import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";

/**
 * No mixed languages (issue 14): a page read in one language shows no text of another language's
 * catalogue. A catalogue text counts when it differs from every text of the page's own catalogue
 * and is long enough to mean something (12 characters or more, placeholders cut out).
 */
const LOCALES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../apps/web/src/locales");
const MIN_LENGTH = 12;

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** Every text of a language's catalogue, cut at its placeholders and markup. */
function catalogue(lang: string): string[] {
  const dir = path.join(LOCALES_DIR, lang);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .flatMap((file) => strings(JSON.parse(readFileSync(path.join(dir, file), "utf8"))))
    .flatMap((text) => text.split(/\{\{[^}]*\}\}|\{[^{}]*\}|<[^>]*>|\$t\([^)]*\)|\n/))
    .map((text) => text.trim());
}

/** The texts of `other` that would betray it on a page in `lang`. */
function betrayers(lang: string, other: string): string[] {
  const own = catalogue(lang);
  const ownJoined = own.join("\n");
  return [...new Set(catalogue(other))].filter(
    (text) => text.length >= MIN_LENGTH && !ownJoined.includes(text),
  );
}

const LANGS = readdirSync(LOCALES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Every text of the other languages that would betray them on a page in `lang`. */
export function otherLanguageTexts(lang: string): string[] {
  return LANGS.filter((other) => other !== lang).flatMap((other) => betrayers(lang, other));
}

/** Waits until the page's text stops changing and nothing shows as loading. */
export async function settledText(page: Page): Promise<string> {
  let last = "";
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(100);
    const { text, busy } = await page.evaluate(() => ({
      text: document.body.innerText,
      busy: Boolean(
        document.querySelector(".ant-skeleton, .ant-spin-spinning, .skeleton, [aria-busy='true']"),
      ),
    }));
    if (!busy && text === last && text.trim()) return text;
    last = text;
  }
  return last;
}
