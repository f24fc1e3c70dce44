import { describe, expect, it } from "vitest";
import {
  createFormat,
  decimalSeparator,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatRelativeTime,
  formatSpeed,
  isFreePlan,
  languageName,
  planName,
} from "./format";

// Intl puts narrow no-break spaces in French numbers: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

const discovery = { name: "Discovery", name_fr: "Découverte", amount: 0, is_default: true };

describe("plans", () => {
  it("names the plan in the UI language", () => {
    expect(planName(discovery, "fr")).toBe("Découverte");
    expect(planName(discovery, "en")).toBe("Discovery");
    expect(planName({ name: "Pro", name_fr: "" }, "fr")).toBe("Pro");
  });

  it("treats the default plan and zero-price plans as free (premium means amount > 0)", () => {
    expect(isFreePlan(discovery)).toBe(true);
    expect(isFreePlan({ amount: 0, is_default: false })).toBe(true);
    expect(isFreePlan({ amount: 990, is_default: false })).toBe(false);
    expect(isFreePlan(null)).toBe(true);
  });
});

describe("formatRelativeTime", () => {
  const now = new Date("2025-06-10T12:00:00Z");
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

  it("uses the largest fitting unit, in the UI language", () => {
    expect(formatRelativeTime(ago(0), "en", now)).toBe("now");
    expect(formatRelativeTime(ago(5 * 60), "en", now)).toBe("5 minutes ago");
    expect(formatRelativeTime(ago(3 * 3600), "fr", now)).toBe("il y a 3 heures");
    expect(formatRelativeTime(ago(86_400), "fr", now)).toBe("hier");
    expect(formatRelativeTime(ago(3 * 7 * 86_400), "en", now)).toBe("3 weeks ago");
  });
});

describe("decimalSeparator", () => {
  it("is the reader's: a comma in French and Spanish, a point in English", () => {
    expect(decimalSeparator("fr")).toBe(",");
    expect(decimalSeparator("es")).toBe(",");
    expect(decimalSeparator("en")).toBe(".");
  });
});

describe("formatMoney", () => {
  it("formats integer cents in the UI language", () => {
    expect(plain(formatMoney(990, "EUR", "fr"))).toBe("9,90 €");
    expect(formatMoney(990, "EUR", "en")).toBe("€9.90");
    expect(plain(formatMoney(123456, "EUR", "fr"))).toBe("1 234,56 €");
    expect(formatMoney(0, "USD", "en")).toBe("US$0.00");
  });

  it("falls back to the code when the currency is unknown to Intl", () => {
    expect(plain(formatMoney(1500, "X1", "fr"))).toBe("15,00 X1");
  });
});

describe("formatDate", () => {
  it("formats an ISO date as a long date, or null", () => {
    expect(formatDate("2026-03-05T10:00:00.000Z", "fr")).toBe("5 mars 2026");
    expect(formatDate("2026-03-05T10:00:00.000Z", "en")).toBe("5 March 2026");
    expect(formatDate(null, "fr")).toBeNull();
    expect(formatDate("not a date", "en")).toBeNull();
  });
});

describe("formatDateTime", () => {
  it("formats in the UI language and keeps null", () => {
    expect(formatDateTime(null, "fr", "short")).toBeNull();
    expect(formatDateTime("not a date", "en", "short")).toBeNull();
    expect(formatDateTime("2026-03-05T10:20:00Z", "en", "short")).toMatch(/^05\/03\/2026, \d\d:20$/);
    expect(formatDateTime("2026-03-05T10:20:00Z", "fr", "short")).toMatch(/^05\/03\/2026 \d\d:20$/);
    expect(formatDate("2026-03-05T10:20:00Z", "fr", "short")).toBe("05/03/2026");
    expect(formatDate(null, "en", "short")).toBeNull();
  });
});

describe("one formatter per language", () => {
  it("binds every helper to the language and reuses Intl formatters", () => {
    const fr = createFormat("fr");
    const en = createFormat("en");
    expect(fr.locale).toBe("fr-FR");
    expect(plain(fr.number(1234.5))).toBe("1 234,5");
    expect(en.number(1234.5)).toBe("1,234.5");
    expect(formatNumber(0.5, "en", { style: "percent" })).toBe("50%");
    expect(fr.speed(1.25)).toBe("1,25×");
    expect(formatSpeed(2, "en")).toBe("2×");
    expect(fr.language("en")).toBe("anglais");
    expect(en.language("fr")).toBe("French");
    expect(languageName("??", "en")).toBe("??");
    expect(fr.date("2026-03-05T10:00:00Z", "short")).toBe("05/03/2026");
    expect(fr.dateTime("2026-03-05T10:00:00Z", "long", "UTC")).toBe("5 mars 2026 à 10:00");
    expect(en.dateTime(new Date("2026-03-05T10:00:00Z"), "medium", "UTC")).toBe("5 Mar 2026, 10:00");
    expect(en.money(990, "EUR")).toBe(formatMoney(990, "EUR", "en"));
  });
});
