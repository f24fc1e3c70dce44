import { describe, expect, it } from "vitest";
import { SPEEDS, savedSpeed, saveSpeed, stepSpeed } from "./speed";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}

describe("the learner's speed", () => {
  it("is kept from one lesson to the next", () => {
    const storage = memoryStorage();
    expect(savedSpeed(storage)).toBe(1);
    saveSpeed(0.75, storage);
    expect(savedSpeed(storage)).toBe(0.75);
    saveSpeed(stepSpeed(0.75, 1), storage);
    expect(savedSpeed(storage)).toBe(0.9);
  });

  it("reads anything odd as a speed in range, and works without storage", () => {
    const storage = memoryStorage();
    storage.setItem("parlons.speed", "12");
    expect(savedSpeed(storage)).toBe(2);
    storage.setItem("parlons.speed", "nope");
    expect(savedSpeed(storage)).toBe(1);
    expect(savedSpeed(null)).toBe(1);
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("full");
      },
    };
    expect(savedSpeed(broken)).toBe(1);
    expect(() => saveSpeed(1.5, broken)).not.toThrow();
    expect(SPEEDS).toContain(savedSpeed(memoryStorage()));
  });
});
