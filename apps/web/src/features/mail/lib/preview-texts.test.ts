import { describe, expect, it } from "vitest";
import { previewOf } from "./preview-texts";

const frEn = { subject_fr: "Objet", subject_en: "Subject", body_fr: "Texte", body_en: "Text" };

describe("the preview of a mail in each language", () => {
  it("shows French and English as typed", () => {
    expect(previewOf(frEn, "fr")).toEqual({ subject: "Objet", body: "Texte" });
    expect(previewOf({ ...frEn, body_en: "" }, "en")).toEqual({ subject: "Subject", body: "" });
  });

  it("shows the Spanish subject and body when both are given", () => {
    const texts = { ...frEn, subject_es: "Asunto", body_es: "Texto" };
    expect(previewOf(texts, "es")).toEqual({ subject: "Asunto", body: "Texto" });
    expect(previewOf(texts, "es", true)).toEqual({ subject: "Asunto", body: "Texto" });
  });

  it("without both Spanish texts: English, else French, never a mix; the built-in text for Parlons's own mails", () => {
    for (const spanish of [{}, { subject_es: "Asunto" }, { subject_es: " ", body_es: "" }]) {
      const texts = { ...frEn, ...spanish };
      expect(previewOf(texts, "es")).toEqual({ subject: "Subject", body: "Text", fallback: "en" });
      expect(previewOf(texts, "es", true)).toEqual({ subject: "", body: "", fallback: "builtIn" });
    }
    expect(previewOf({ ...frEn, body_en: "" }, "es")).toEqual({
      subject: "Objet",
      body: "Texte",
      fallback: "fr",
    });
    expect(previewOf({}, "es")).toEqual({ subject: "", body: "" });
  });
});
