import { describe, expect, it } from "vitest";
import { EMPTY_AUDIENCE, toAudience } from "./audience";

describe("toAudience", () => {
  it("leaves out the filters set to any", () => {
    expect(toAudience(EMPTY_AUDIENCE)).toEqual({});
    expect(toAudience(undefined)).toEqual({});
    expect(toAudience({ role: "CUSTOMER", plan: "premium", speak: "any" })).toEqual({
      role: "CUSTOMER",
      plan: "premium",
    });
    expect(toAudience({ role: "any", plan: "any", speak: "EN" })).toEqual({ speak: "EN" });
  });
});
