import { describe, expect, it } from "vitest";
import {
  addCueAt,
  type EditedCue,
  fillTexts,
  isMultiLine,
  lineAt,
  mergeAtPlayhead,
  mergeWithNext,
  setStart,
  splitAtPlayhead,
  splitCue,
} from "./cue-edit";

const cue = (start: number, end: number, text: string, fr = ""): EditedCue => ({
  key: text,
  start,
  end,
  text,
  translation_fr: fr,
  translation_en: "",
});
const lines = [cue(0, 2, "Hola."), cue(2, 6, "Buenos días a todos.", "Bonjour à tous."), cue(6, 8, "Adiós.")];

describe("cue editing", () => {
  it("retimes a line's start and keeps the line before back to back", () => {
    const moved = setStart(lines, 1, 2.5);
    expect(moved.map((c) => [c.start, c.end])).toEqual([
      [0, 2.5],
      [2.5, 6],
      [6, 8],
    ]);
    // never past its own end
    expect(setStart(lines, 2, 9)[2]?.start).toBeCloseTo(7.9);
  });

  it("splits at the audio's time, sharing the words by time; translations stay with the first half", () => {
    const split = splitCue(lines, 1, 4);
    expect(split).toHaveLength(4);
    expect(split[1]).toMatchObject({
      start: 2,
      end: 4,
      text: "Buenos días",
      translation_fr: "Bonjour à tous.",
    });
    expect(split[2]).toMatchObject({ start: 4, end: 6, text: "a todos.", translation_fr: "" });
    expect(split[2]?.key).not.toBe(split[1]?.key);
    // outside the line: the middle
    expect(splitCue(lines, 0, 30)[0]?.end).toBe(1);
  });

  it("merges a line with the next one", () => {
    const merged = mergeWithNext(lines, 0);
    expect(merged).toHaveLength(2);
    expect(merged[0]).toMatchObject({
      start: 0,
      end: 6,
      text: "Hola. Buenos días a todos.",
      translation_fr: "Bonjour à tous.",
    });
    expect(mergeWithNext(lines, 2)).toEqual(lines);
  });

  it("adds a line at the current time, in order, not running into the next", () => {
    const added = addCueAt(lines, 5.5, 8);
    expect(added.map((c) => c.start)).toEqual([0, 2, 5.5, 6]);
    expect(added[2]?.end).toBe(6);
    expect(addCueAt([], 3, null)[0]).toMatchObject({ start: 3, end: 5, text: "" });
  });

  it("fills the segments of audio without a script from a pasted text, one line each, in order", () => {
    const segments = [cue(0, 1, ""), cue(1, 2, ""), cue(2, 3, ""), cue(3, 4, "")].map((c, i) => ({
      ...c,
      key: `s${i}`,
    }));
    const pasted = "Hola.\r\n\n  Buenos días.  \nAdiós.\n";
    expect(isMultiLine(pasted)).toBe(true);
    expect(isMultiLine("  Hola.\n")).toBe(false);
    // pasted into the second segment: it and the next two take the texts, the first stays as it was
    const from1 = fillTexts(segments, 1, pasted);
    expect(from1.cues.map((c) => c.text)).toEqual(["", "Hola.", "Buenos días.", "Adiós."]);
    expect(from1.cues.map((c) => [c.key, c.start, c.end])).toEqual(
      segments.map((c) => [c.key, c.start, c.end]),
    );
    expect([from1.filled, from1.leftover]).toEqual([3, 0]);
    // more lines than segments left: the rest is counted, nothing is lost silently
    const from2 = fillTexts(segments, 2, pasted);
    expect(from2.cues.map((c) => c.text)).toEqual(["", "", "Hola.", "Buenos días."]);
    expect([from2.filled, from2.leftover]).toEqual([2, 1]);
  });

  it("splits and merges at the waveform's playhead", () => {
    expect([lineAt(lines, 0), lineAt(lines, 2), lineAt(lines, 7.99), lineAt(lines, 8)]).toEqual([
      0, 1, 2, -1,
    ]);
    const split = splitAtPlayhead(lines, 4);
    expect(split?.index).toBe(1);
    expect(split?.cues.map((c) => [c.start, c.end])).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
      [6, 8],
    ]);
    // between lines, or too near an edge: nothing to split
    expect(splitAtPlayhead([cue(0, 1, "a"), cue(2, 3, "b")], 1.5)).toBeNull();
    expect(splitAtPlayhead(lines, 2.05)).toBeNull();
    const merged = mergeAtPlayhead(lines, 1, 2);
    expect(merged?.index).toBe(0);
    expect(merged?.cues.map((c) => [c.start, c.end, c.text])).toEqual([
      [0, 6, "Hola. Buenos días a todos."],
      [6, 8, "Adiós."],
    ]);
    // the playhead past the last line: the selected line is merged; the last line has no next one
    expect(mergeAtPlayhead(lines, 9, 1)?.cues).toHaveLength(2);
    expect(mergeAtPlayhead(lines, 7, 0)).toBeNull();
  });
});
