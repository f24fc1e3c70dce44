import { describe, expect, it } from "vitest";
import { langFromPath, localizePath, stripLang, switchLangPath } from "./locale-path";

describe("locale paths", () => {
  it("reads the language from the prefix only", () => {
    expect(langFromPath("/")).toBe("fr");
    expect(langFromPath("/en")).toBe("en");
    expect(langFromPath("/en/profile")).toBe("en");
    expect(langFromPath("/en?x=1")).toBe("en");
    expect(langFromPath("/english")).toBe("fr");
    expect(langFromPath("/courses/en")).toBe("fr");
  });

  it("strips the prefix, keeping query and hash", () => {
    expect(stripLang("/en")).toBe("/");
    expect(stripLang("/en/")).toBe("/");
    expect(stripLang("/en/courses/12?tab=a#b")).toBe("/courses/12?tab=a#b");
    expect(stripLang("/en?x=1")).toBe("/?x=1");
    expect(stripLang("/enfants")).toBe("/enfants");
    expect(stripLang("/profile")).toBe("/profile");
  });

  it("localizes unprefixed paths", () => {
    expect(localizePath("/", "en")).toBe("/en");
    expect(localizePath("/", "fr")).toBe("/");
    expect(localizePath("/dashboard", "en")).toBe("/en/dashboard");
    expect(localizePath("/dashboard", "fr")).toBe("/dashboard");
    expect(localizePath("/?signup=1", "en")).toBe("/en?signup=1");
    expect(localizePath("faqs", "en")).toBe("/en/faqs");
  });

  it("switches the language and keeps the current page", () => {
    expect(switchLangPath("/courses/5/lessons?x=1", "en")).toBe("/en/courses/5/lessons?x=1");
    expect(switchLangPath("/en/courses/5/lessons?x=1", "fr")).toBe("/courses/5/lessons?x=1");
    expect(switchLangPath("/en", "fr")).toBe("/");
    expect(switchLangPath("/", "en")).toBe("/en");
    expect(switchLangPath("/en/profile", "en")).toBe("/en/profile");
  });
});
