import { describe, expect, it } from "vitest";
import { NUDGE, nudgeLine, pastAudioEnd, placeLine } from "./line-bounds";

const lines = [
  { start: 1, end: 2 },
  { start: 2.5, end: 4 },
  { start: 4, end: 6 },
];

describe("line bounds", () => {
  it("nudges an edge by 50 ms", () => {
    expect(nudgeLine(lines, 1, "start", NUDGE, 7)).toEqual({ start: 2.55, end: 4, clamped: false });
    expect(nudgeLine(lines, 1, "start", -NUDGE, 7)).toEqual({ start: 2.45, end: 4, clamped: false });
    expect(nudgeLine(lines, 0, "end", NUDGE, 7)).toEqual({ start: 1, end: 2.05, clamped: false });
  });

  it("refuses to overlap the neighbours or pass the audio's end", () => {
    // the next line starts at 4: the end stays there
    expect(nudgeLine(lines, 1, "end", NUDGE, 7)).toEqual({ start: 2.5, end: 4, clamped: true });
    // the line before ends at 2
    expect(placeLine(lines, 1, { start: 1.5, end: 3 }, 7)).toEqual({ start: 2, end: 3, clamped: true });
    // an end of 14 s on 7 s of audio
    expect(placeLine(lines, 2, { start: 4, end: 14 }, 7)).toEqual({ start: 4, end: 7, clamped: true });
    expect(placeLine(lines, 0, { start: -1, end: 2 }, 7)).toEqual({ start: 0, end: 2, clamped: true });
  });

  it("keeps a line at least 0.1 s long", () => {
    expect(nudgeLine([{ start: 1, end: 1.1 }], 0, "end", -NUDGE, null)).toEqual({
      start: 1,
      end: 1.1,
      clamped: true,
    });
    expect(nudgeLine([{ start: 1, end: 1.1 }], 0, "start", NUDGE, null)?.start).toBeCloseTo(1);
  });
});

describe("lines past the audio's end (said before saving)", () => {
  it("names the lines the server would refuse: an end of 14 s on 7 s of audio, not one within its second", () => {
    const typed = [
      { start: 0, end: 3 },
      { start: 3, end: 7.6 },
      { start: 8, end: 14 },
    ];
    expect([...pastAudioEnd(typed, 7)]).toEqual([2]);
    expect([...pastAudioEnd([{ start: 8.5, end: 9 }], 7)]).toEqual([0]);
    expect(pastAudioEnd(typed, null).size).toBe(0);
    expect(pastAudioEnd(typed, 14).size).toBe(0);
  });
});
