import { describe, expect, it } from "vitest";
import { formatRelativeTime, isFreePlan, planName } from "./format";

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
