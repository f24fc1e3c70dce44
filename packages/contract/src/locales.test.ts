import { describe, expect, it } from "vitest";
import { fallbackChain, fromAcceptLanguage, LOCALES, pickField, pickText, toLocale } from "./locales";
import { langFromPath, localizePath, stripLang, switchLangPath } from "./web-routes";

describe("the fallback rule for data that has a language", () => {
  it("takes the reader's language, else English, else French, else whatever there is", () => {
    expect(pickText({ fr: "Bonjour", en: "Hello" }, "fr")).toBe("Bonjour");
    expect(pickText({ fr: "Bonjour", en: "Hello" }, "en")).toBe("Hello");
    expect(pickText({ fr: "Bonjour", en: "  " }, "en")).toBe("Bonjour");
    expect(pickText({ fr: "", en: "Hello" }, "fr")).toBe("Hello");
    expect(pickText({}, "fr")).toBe("");
    for (const lang of LOCALES) {
      expect(fallbackChain(lang)[0]).toBe(lang);
      expect(new Set(fallbackChain(lang))).toEqual(new Set(LOCALES));
      expect(pickText({ fr: "Bonjour", en: "Hello" }, lang)).toBe(lang === "fr" ? "Bonjour" : "Hello");
    }
  });

  it("reads `<base>_<code>` fields", () => {
    const plan = { subject_fr: "Votre reçu", subject_en: "Your receipt", other: 1 };
    expect(pickField(plan, "subject", "fr")).toBe("Votre reçu");
    expect(pickField(plan, "subject", "en")).toBe("Your receipt");
    expect(pickField({ title_fr: "Seul" }, "title", "en")).toBe("Seul");
  });

  it("reads codes from anywhere, else the default", () => {
    expect(toLocale("EN")).toBe("en");
    expect(toLocale("xx")).toBe("fr");
    expect(toLocale(undefined)).toBe("fr");
  });
});

describe("language prefixes", () => {
  it("every language but French lives under its own prefix", () => {
    for (const lang of LOCALES) {
      const home = localizePath("/", lang);
      expect(home).toBe(lang === "fr" ? "/" : `/${lang}`);
      expect(langFromPath(localizePath("/courses/1?x=1", lang))).toBe(lang);
      expect(stripLang(localizePath("/courses/1?x=1", lang))).toBe("/courses/1?x=1");
      expect(stripLang(home)).toBe("/");
      expect(switchLangPath(localizePath("/pricing#a", lang), "fr")).toBe("/pricing#a");
    }
    expect(langFromPath("/english")).toBe("fr");
    expect(stripLang("/enx/a")).toBe("/enx/a");
  });
});

describe("the reader's language from Accept-Language", () => {
  it("takes the site's locale the browser prefers most", () => {
    expect(fromAcceptLanguage("en-GB,en;q=0.9,fr;q=0.8")).toBe("en");
    expect(fromAcceptLanguage("es-MX")).toBe("es");
    expect(fromAcceptLanguage("de-DE,de;q=0.9,es;q=0.5,en;q=0.7")).toBe("en");
    expect(fromAcceptLanguage("fr-CA,en;q=0.9")).toBe("fr");
    expect(fromAcceptLanguage("en;q=0.5, es;q=0.5")).toBe("en");
  });
  it("names none when the browser asks for none of them, or refuses them", () => {
    expect(fromAcceptLanguage("de-DE,it;q=0.8")).toBeNull();
    expect(fromAcceptLanguage("en;q=0")).toBeNull();
    expect(fromAcceptLanguage("*")).toBeNull();
    expect(fromAcceptLanguage("")).toBeNull();
    expect(fromAcceptLanguage(undefined)).toBeNull();
    expect(fromAcceptLanguage("en;q=abc")).toBeNull();
  });
});
