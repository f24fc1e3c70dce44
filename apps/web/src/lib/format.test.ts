import { describe, expect, it } from "vitest";
import { isFreePlan, planName } from "./format";

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
