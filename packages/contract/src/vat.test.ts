import { describe, expect, it } from "vitest";
import { EU_COUNTRIES, EU_VAT_RATES, invoiceCountry, splitVat, VAT_RATES_DATE, vatRateFor } from "./vat";

describe("VAT", () => {
  it("the rates table holds the 27 member states' standard rates, dated", () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(VAT_RATES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const rate of Object.values(EU_VAT_RATES)) expect(rate).toBeGreaterThanOrEqual(1700);
    expect(EU_VAT_RATES.FR).toBe(2000);
  });

  it("the rate by scheme and country", () => {
    expect(vatRateFor("exempt", "FR", "DE")).toEqual({ rate: 0, note: "exempt" });
    expect(vatRateFor("domestic", "FR", "DE")).toEqual({ rate: 2000, note: null });
    expect(vatRateFor("oss", "FR", "DE")).toEqual({ rate: 1900, note: null });
    expect(vatRateFor("oss", "FR", "US")).toEqual({ rate: 0, note: "outside_eu" });
    expect(vatRateFor("domestic", "FR", "GB")).toEqual({ rate: 0, note: "outside_eu" });
    expect(vatRateFor("oss", "FR", null)).toEqual({ rate: 2000, note: null });
  });

  it("splits an amount tax included, to the cent", () => {
    expect(splitVat(4900, 2000)).toEqual({ net: 4083, vat: 817 });
    expect(splitVat(1200, 2000)).toEqual({ net: 1000, vat: 200 });
    expect(splitVat(990, 0)).toEqual({ net: 990, vat: 0 });
  });

  it("the payment's country wins over the declared one when they differ", () => {
    expect(invoiceCountry("LU", "BE")).toBe("BE");
    expect(invoiceCountry("LU", undefined)).toBe("LU");
    expect(invoiceCountry("LU", "LU")).toBe("LU");
    expect(invoiceCountry(null, null)).toBe(null);
  });
});
