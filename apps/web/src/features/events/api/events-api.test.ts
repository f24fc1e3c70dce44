import { describe, expect, it } from "vitest";
import { placeChoices } from "./events-api";

describe("booking helpers", () => {
  it("offers 1 to min(limit, places left) places", () => {
    expect(placeChoices(12, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(placeChoices(2, 5)).toEqual([1, 2]);
    expect(placeChoices(0, 5)).toEqual([]);
  });
});
