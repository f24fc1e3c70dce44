import { describe, expect, it } from "vitest";
import { offerReach, offersFor } from "./offers";
import { plan } from "./plan-fixture";

describe("offers of a course", () => {
  it("lists the paid plans that open it, the single-course plan first", () => {
    const plans = [
      plan({ id: "free", amount: 0, premium: false, is_default: true }),
      plan({ id: "all", position: 1 }),
      plan({ id: "two", scope: "courses", course_ids: ["a", "b"] }),
      plan({ id: "other", scope: "courses", course_ids: ["b"] }),
      plan({ id: "a", scope: "courses", course_ids: ["a"], position: 5 }),
      plan({ id: "off", scope: "courses", course_ids: ["a"], active: false }),
    ];
    expect(offersFor(plans, "a").map((p) => p.id)).toEqual(["a", "two", "all"]);
    expect(offersFor(plans, "c").map((p) => p.id)).toEqual(["all"]);
  });

  it("says how far a plan reaches", () => {
    expect(offerReach(plan({}))).toEqual({ key: "all", count: 0 });
    expect(offerReach(plan({ scope: "courses", course_ids: ["a"] }))).toEqual({ key: "one", count: 1 });
    expect(offerReach(plan({ scope: "courses", course_ids: ["a", "b"] }))).toEqual({ key: "some", count: 2 });
  });
});
