import { describe, expect, it } from "vitest";
import { type Access, mayOpen, type OpenVerdict, type PaceLock, refusal } from "./policy";

// The decision table of the one entitlement verb: who, which lesson, which course, which pace lock.
const order: PaceLock = { reason: "order", opensAt: null };
const date: PaceLock = { reason: "date", opensAt: new Date("2026-12-01T00:00:00Z") };
const learner = (access: Access) => ({ staff: false, access });
const staff = { staff: true, access: "all" as Access };
const lesson = (free: boolean, active = true, courseId = "c1") => ({ free, active, courseId });
const live = { active: true };
const closedCourse = { active: false };

describe("mayOpen", () => {
  it.each<[string, Parameters<typeof mayOpen>, OpenVerdict]>([
    ["free lesson, free plan", [learner("free"), lesson(true), live], { open: true }],
    ["premium lesson, paid plan", [learner("all"), lesson(false), live], { open: true }],
    ["premium lesson, free plan", [learner("free"), lesson(false), live], { open: false, reason: "premium" }],
    ["premium lesson, plan of its course", [learner("courses:c1"), lesson(false), live], { open: true }],
    [
      "premium lesson, plan of another course",
      [learner("courses:c2"), lesson(false), live],
      { open: false, reason: "premium" },
    ],
    ["free lesson, plan of another course", [learner("courses:c2"), lesson(true), live], { open: true }],
    ["inactive lesson", [learner("all"), lesson(true, false), live], { open: false, reason: "hidden" }],
    ["inactive course", [learner("all"), lesson(true), closedCourse], { open: false, reason: "hidden" }],
    // hidden wins over premium, premium over pace: one reason, the first the reader would hit
    [
      "inactive premium lesson, free plan",
      [learner("free"), lesson(false, false), live],
      { open: false, reason: "hidden" },
    ],
    [
      "paced premium lesson, free plan",
      [learner("free"), lesson(false), live, order],
      { open: false, reason: "premium" },
    ],
    [
      "paced (order)",
      [learner("all"), lesson(false), live, order],
      { open: false, reason: "pace", lock: order },
    ],
    [
      "paced (date)",
      [learner("free"), lesson(true), live, date],
      { open: false, reason: "pace", lock: date },
    ],
    ["staff: inactive, premium, paced", [staff, lesson(false, false), closedCourse, order], { open: true }],
  ])("%s", (_, args, expected) => {
    expect(mayOpen(...args)).toEqual(expected);
  });
});

describe("refusal", () => {
  it("gives one status and code per reason", () => {
    const of = (v: Exclude<OpenVerdict, { open: true }>) => {
      const e = refusal(v);
      return [e.statusCode, e.code];
    };
    expect(of({ open: false, reason: "hidden" })).toEqual([404, "NOT_FOUND"]);
    expect(of({ open: false, reason: "premium" })).toEqual([403, "PREMIUM_REQUIRED"]);
    expect(of({ open: false, reason: "pace", lock: order })).toEqual([403, "LESSON_NOT_OPEN_YET"]);
    expect(refusal({ open: false, reason: "pace", lock: date }).message).toMatch(/pace/);
  });
});
