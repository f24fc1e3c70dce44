import { LOCALES } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { catalogues, counted, fill } from ".";

/** Every text of a catalogue by its dotted key. */
function flatten(node: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("the server's catalogues", () => {
  const reference = flatten(catalogues.fr);

  it("exist for every language of LOCALES", () => {
    expect(Object.keys(catalogues).sort()).toEqual([...LOCALES].sort());
  });

  for (const lang of LOCALES) {
    describe(lang, () => {
      const texts = flatten(catalogues[lang]);

      it("has every key of French and no other", () => {
        expect([...texts.keys()].sort()).toEqual([...reference.keys()].sort());
      });

      it("has the placeholders of French in each text, and no empty text", () => {
        for (const [key, text] of texts) {
          expect(placeholders(text), `${lang}: ${key}`).toEqual(placeholders(reference.get(key) ?? ""));
          expect(text.trim(), `${lang}: ${key}`).not.toBe("");
        }
      });
    });
  }
});

describe("fill and counted", () => {
  it("fills the placeholders it is given and leaves the others", () => {
    expect(fill("{{a}} and {{b}}, {{a}}", { a: "x" })).toBe("x and {{b}}, x");
  });

  it("picks the plural form of the language", () => {
    const { streak } = catalogues.fr.words;
    expect(counted(streak, "days", 0, "fr")).toBe("0 jour");
    expect(counted(streak, "days", 2, "fr")).toBe("2 jours");
    expect(counted(catalogues.en.words.streak, "days", 0, "en")).toBe("0 days");
  });
});
