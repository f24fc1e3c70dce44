import { LOCALES } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { exportMail } from "./export-mail";

describe("the data export mail", () => {
  it("exists in every language and carries the link", () => {
    const subjects = new Set<string>();
    for (const lang of LOCALES) {
      const mail = exportMail(lang, "https://parlons.test/api/v1/data-exports/abc");
      expect(mail.text, lang).toContain("\nhttps://parlons.test/api/v1/data-exports/abc\n");
      subjects.add(mail.subject);
    }
    expect(subjects.size).toBe(LOCALES.length);
    expect(exportMail("es", "x").subject).toBe("Parlons: tus datos están listos");
  });
});
