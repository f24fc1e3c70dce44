import { describe, expect, it } from "vitest";
import { moveItem, positionChanges } from "./reorder";

describe("lesson reorder", () => {
  it("moves an item", () => {
    expect(moveItem(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(moveItem(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(moveItem(["a", "b"], 0, 5)).toEqual(["a", "b"]);
  });

  it("sends only the positions that change", () => {
    const rows = [
      { id: "b", position: 1 },
      { id: "a", position: 0 },
      { id: "c", position: 2 },
    ];
    expect(positionChanges(rows)).toEqual([
      { id: "b", position: 0 },
      { id: "a", position: 1 },
    ]);
  });
});
