import { LOCALES } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { streakLine } from "./reminder-text";

describe("the streak line of a study reminder", () => {
  it("is in the reader's language, with the plural of that language", () => {
    expect(streakLine(1, "fr")).toBe("Votre série : 1 jour.");
    expect(streakLine(3, "fr")).toBe("Votre série : 3 jours.");
    expect(streakLine(1, "en")).toBe("Your streak: 1 day.");
    expect(streakLine(2, "en")).toBe("Your streak: 2 days.");
    expect(streakLine(1, "es")).toBe("Tu racha: 1 día.");
    expect(streakLine(5, "es")).toBe("Tu racha: 5 días.");
  });

  it("is empty without a streak, and exists in every language", () => {
    for (const lang of LOCALES) {
      expect(streakLine(0, lang)).toBe("");
      expect(streakLine(2, lang)).toMatch(/2/);
    }
  });
});
