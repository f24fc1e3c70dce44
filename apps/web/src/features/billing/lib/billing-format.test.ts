import { describe, expect, it } from "vitest";
import { canCancel, checkoutTarget, intervalKey, statusColor } from "./billing-format";

// Intl puts narrow no-break spaces in French numbers: compare with plain spaces.
const _plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("intervalKey", () => {
  it("names the billing namespace key of each interval", () => {
    expect(intervalKey("month")).toBe("billing:interval.month");
    expect(intervalKey("year")).toBe("billing:interval.year");
    expect(intervalKey("once")).toBe("billing:interval.once");
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
