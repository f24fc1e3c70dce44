import { describe, expect, it } from "vitest";
import { globalHints } from "../src/dtw.js";
import { computeFeatures } from "../src/features.js";
import type { Segment } from "../src/segment.js";
import { chord, concat, RATE, seeded, silence, voiced } from "./signals.js";

const frame = (seconds: number) => Math.round(seconds * 100);

describe("globalHints (banded DTW of the reference reading against the recording)", () => {
  it("finds junctions read without a pause, after an intro, from a first placement 1.5 s off", () => {
    const random = seeded(5);
    const lines = [5, 1, 7, 2, 6, 3].map((n) => voiced(n, random, 0.15 + random() * 0.1));
    // the reference: each line alone, with a long break between lines
    const refParts: Float32Array[] = [];
    const ranges: [number, number][] = [];
    let t = 0;
    for (const line of lines) {
      ranges.push([frame(t), frame(t + line.length / RATE)]);
      refParts.push(line, silence(0.7));
      t += line.length / RATE + 0.7;
    }
    // the recording: a held chord, then the lines with 20 ms between them, under a little noise
    const recParts: Float32Array[] = [chord(3), silence(0.2)];
    const junctions: number[] = [];
    const segments: Segment[] = [];
    t = 3.2;
    lines.forEach((line, i) => {
      if (i > 0) junctions.push(t - 0.01);
      const seconds = line.length / RATE;
      // where a first assignment put the line: 1.5 s late
      segments.push({
        start: frame(t + 1.5),
        end: frame(t + 1.5 + seconds),
        speech: 0,
        durationError: 0,
        startStrength: 0,
        endStrength: 0,
      });
      recParts.push(line, silence(0.02));
      t += seconds + 0.02;
    });
    const recording = concat(recParts);
    for (let i = 0; i < recording.length; i++)
      recording[i] = (recording[i] as number) + (random() * 2 - 1) * 0.01;

    const hints = globalHints(
      computeFeatures(recording),
      computeFeatures(concat(refParts)),
      ranges,
      segments,
    );

    expect(hints).toHaveLength(lines.length - 1);
    hints.forEach((h, j) => {
      expect(h).not.toBeNull();
      expect(Math.abs((h as number) / 100 - (junctions[j] as number))).toBeLessThan(0.1);
    });
  });
});
