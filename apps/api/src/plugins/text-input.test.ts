import { describe, expect, it } from "vitest";
import { holdsNul } from "./text-input";

describe("holdsNul", () => {
  it("finds U+0000 in any string or key of a parsed input, however deep", () => {
    expect(holdsNul({ a: ["x", { b: "y\u0000" }] })).toBe(true);
    expect(holdsNul({ "k\u0000": 1 })).toBe(true);
    expect(holdsNul({ a: ["x", { b: "y" }], n: 1, z: null })).toBe(false);
    expect(holdsNul(undefined)).toBe(false);
  });
});
