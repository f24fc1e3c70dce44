import { describe, expect, it } from "vitest";
import { pagePath } from "./paths";

describe("pagePath", () => {
  it("fills a route's pattern with its parameters, encoded", () => {
    expect(pagePath("home")).toBe("/");
    expect(pagePath("pricing")).toBe("/pricing");
    expect(pagePath("lesson", { id: "c1", lessonId: "l 2" })).toBe("/courses/c1/lessons/l%202");
    expect(pagePath("users")).toBe("/User");
  });

  it("leaves out an optional parameter not given, and adds the query it is given", () => {
    expect(pagePath("userEdit")).toBe("/User/edit");
    expect(pagePath("userEdit", { id: "u1" })).toBe("/User/edit/u1");
    expect(pagePath("upgradePayment", {}, { plan: "p&1", gone: undefined })).toBe(
      "/billing/upgrade-payment?plan=p%261",
    );
  });
});
