import { LOCALES } from "@parlons/contract";
import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import "./dayjs-locales";

describe("date picker words", () => {
  it("every language has its dayjs locale, so month names are in that language", () => {
    for (const lang of LOCALES) expect(dayjs.Ls[lang], lang).toBeDefined();
    const january = dayjs("2026-01-15T12:00:00Z");
    expect(january.locale("fr").format("MMMM")).toBe("janvier");
    expect(january.locale("es").format("MMMM")).toBe("enero");
    expect(january.locale("en").format("MMMM")).toBe("January");
  });
});
