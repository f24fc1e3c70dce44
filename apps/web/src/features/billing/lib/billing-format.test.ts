import { describe, expect, it } from "vitest";
import {
  canCancel,
  checkoutTarget,
  formatDate,
  formatPrice,
  intervalKey,
  statusColor,
} from "./billing-format";

// Intl puts narrow no-break spaces in French numbers: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatPrice", () => {
  it("formats integer cents in the UI language", () => {
    expect(plain(formatPrice(990, "EUR", "fr"))).toBe("9,90 €");
    expect(formatPrice(990, "EUR", "en")).toBe("€9.90");
    expect(plain(formatPrice(123456, "EUR", "fr"))).toBe("1 234,56 €");
    expect(formatPrice(0, "USD", "en")).toBe("US$0.00");
  });

  it("falls back to the code when the currency is unknown to Intl", () => {
    expect(plain(formatPrice(1500, "X1", "fr"))).toBe("15,00 X1");
  });
});

describe("intervalKey", () => {
  it("names the billing namespace key of each interval", () => {
    expect(intervalKey("month")).toBe("billing:interval.month");
    expect(intervalKey("year")).toBe("billing:interval.year");
    expect(intervalKey("once")).toBe("billing:interval.once");
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

describe("statuses", () => {
  it("colours and cancellability", () => {
    expect(statusColor("ACTIVE")).toBe("green");
    expect(statusColor("CANCELLED")).toBe("default");
    expect(canCancel("ACTIVE")).toBe(true);
    expect(canCancel("SUSPENDED")).toBe(true);
    expect(canCancel("CANCELLED")).toBe(false);
    expect(canCancel("APPROVAL_PENDING")).toBe(false);
  });
});

describe("checkoutTarget", () => {
  it("routes the demo checkout in the app and PayPal as a full page", () => {
    expect(checkoutTarget("/billing/subscription-payment?demo=1")).toEqual({
      kind: "internal",
      path: "/billing/subscription-payment?demo=1",
    });
    expect(checkoutTarget("https://www.sandbox.paypal.com/webapps/billing/subscriptions?ba_token=X")).toEqual(
      {
        kind: "external",
        url: "https://www.sandbox.paypal.com/webapps/billing/subscriptions?ba_token=X",
      },
    );
  });

  it("refuses protocol-relative, plain http and script links", () => {
    expect(checkoutTarget("//evil.test/x")).toBeNull();
    expect(checkoutTarget("/\\evil.test")).toBeNull();
    expect(checkoutTarget("http://paypal.test")).toBeNull();
    expect(checkoutTarget("javascript:alert(1)")).toBeNull();
  });
});
