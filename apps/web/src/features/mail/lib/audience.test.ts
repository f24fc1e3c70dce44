import { describe, expect, it } from "vitest";
import { EMPTY_AUDIENCE, toAudience } from "./audience";

const course = "00000000-0000-4000-8000-000000000001";

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

  it("adds a course and a number of inactive days, with the other filters", () => {
    expect(toAudience({ ...EMPTY_AUDIENCE, course_id: course })).toEqual({ course_id: course });
    expect(toAudience({ ...EMPTY_AUDIENCE, course_id: course, inactive_days: 30, speak: "FR" })).toEqual({
      course_id: course,
      inactive_days: 30,
      speak: "FR",
    });
    expect(toAudience({ inactive_days: 1 })).toEqual({ inactive_days: 1 });
    expect(toAudience({ inactive_days: 365 })).toEqual({ inactive_days: 365 });
  });

  it("leaves out a number of days the API would refuse", () => {
    for (const days of [0, 366, 2.5, null, Number.NaN]) {
      expect(toAudience({ ...EMPTY_AUDIENCE, inactive_days: days })).toEqual({});
    }
  });
});
