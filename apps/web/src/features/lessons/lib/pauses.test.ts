import { describe, expect, it } from "vitest";
import { findPauses, snapToPauses } from "./pauses";

const RATE = 8000;
/** Silence and tones of the given seconds, in turn (silence first), with a faint noise. */
function sound(parts: number[]): Float32Array {
  const out: number[] = [];
  let seed = 5;
  const noise = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed / 2147483647 - 0.5) * 0.004;
  };
  parts.forEach((seconds, k) => {
    for (let i = 0; i < Math.round(seconds * RATE); i++)
      out.push((k % 2 ? 0.5 * Math.sin((2 * Math.PI * 220 * i) / RATE) : 0) + noise());
  });
  return Float32Array.from(out);
}

describe("pauses of a sound, and a line's edges snapped to them", () => {
  it("finds the silences of 150 ms or more, not the shorter dips", () => {
    // 0.5 s silence, 1 s tone, 0.05 s dip, 1 s tone, 0.6 s silence, 0.8 s tone, 0.3 s silence
    const pauses = findPauses(sound([0.5, 1, 0.05, 1, 0.6, 0.8, 0.3]), RATE);
    expect(pauses).toHaveLength(3);
    expect(pauses[0]?.start).toBe(0);
    expect(pauses[0]?.end).toBeCloseTo(0.5, 1);
    expect(pauses[1]?.start).toBeCloseTo(2.55, 1);
    expect(pauses[1]?.end).toBeCloseTo(3.15, 1);
  });

  it("moves the start to where a pause ends and the end to where one starts, within a second", () => {
    const pauses = [
      { start: 0, end: 0.5 },
      { start: 2.55, end: 3.15 },
      { start: 3.95, end: 4.25 },
    ];
    expect(snapToPauses({ start: 0.8, end: 2.2 }, pauses)).toEqual({ start: 0.5, end: 2.55 });
    expect(snapToPauses({ start: 3.4, end: 4.1 }, pauses)).toEqual({ start: 3.15, end: 3.95 });
    // nothing in reach: nothing moves
    expect(snapToPauses({ start: 10, end: 12 }, pauses)).toBeNull();
  });
});
