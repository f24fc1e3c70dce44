import { describe, expect, it } from "vitest";
import { alignAudio } from "../src/align.js";
import { segmentLines } from "../src/segment.js";
import { chord, concat, RATE, seeded, silence, voiced, wav } from "./signals.js";

const lineOf = (n: number) => `${Array.from({ length: n }, () => "pa").join(" ")}.`;

/** Held chords with a drum hit (a 60 ms burst of noise) on every beat: an intro jingle. */
function drumJingle(seconds: number, random: () => number): Float32Array {
  const out = concat([chord(seconds / 2), chord(seconds / 2, [220, 277.2, 329.6])]);
  const beat = Math.round(0.5 * RATE);
  const hit = Math.round(0.09 * RATE);
  for (let at = beat / 2; at + hit < out.length; at += beat) {
    for (let i = 0; i < hit; i++)
      out[at + i] = (out[at + i] as number) + (random() * 2 - 1) * 1.2 * (1 - i / hit);
  }
  return out;
}

describe("alignAudio with music that is not in the script", { timeout: 30_000 }, () => {
  it("does not take a jingle's drum hits for speech", async () => {
    const random = seeded(23);
    const counts = [5, 1, 7, 3, 6, 2];
    const gaps = [0.08, 0.06, 0.1, 0.05, 0.07, 0.5];
    const intro = drumJingle(6, random);
    const parts: Float32Array[] = [silence(0.3), intro, silence(0.25)];
    const starts: number[] = [];
    let t = 0.55 + intro.length / RATE;
    counts.forEach((n, i) => {
      const line = voiced(n, random);
      parts.push(line, silence(gaps[i] as number));
      starts.push(t);
      t += line.length / RATE + (gaps[i] as number);
    });
    const samples = concat(parts);
    for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] as number) + (random() * 2 - 1) * 0.003;

    const result = await alignAudio(wav(samples), counts.map(lineOf), { lang: "en", synthesis: "off" });

    const right = result.cues.filter((c, i) => Math.abs(c.start - (starts[i] as number)) <= 0.25);
    expect(right).toHaveLength(counts.length);
  });

  it("does not start a line in a jingle's burst that passes for speech (the assignment)", () => {
    // 12 s: a jingle (music) for the first 3 s with a burst of "speech" in it, then three lines
    // read continuously, 60 ms apart, between dips inside them
    const frames = 1200;
    const presence = new Float32Array(frames);
    const music = new Float32Array(frames);
    music.fill(1, 0, 300);
    for (const [a, b] of [
      [150, 230],
      [320, 600],
      [606, 900],
      [906, 1100],
    ] as const)
      presence.fill(1, a, b);
    const dip = (start: number, strength = 0.1) => ({ start, end: start + 4, strength });
    const pauses = [
      { start: 0, end: 150, strength: 1 },
      { start: 230, end: 320, strength: 0.6 },
      dip(420),
      dip(500),
      { start: 600, end: 606, strength: 0.15 },
      dip(700),
      dip(800),
      { start: 900, end: 906, strength: 0.15 },
      dip(1000),
      { start: 1100, end: 1200, strength: 1 },
    ];
    const input = { presence, pauses, weights: [10, 10, 7], measure: "time" as const };
    const edges = (segments: { start: number; end: number }[]) => segments.map((s) => [s.start, s.end]);

    // without the music measure the burst is taken as the first line's start, and every line drifts
    expect(edges(segmentLines(input))[0]).toEqual([150, 500]);
    expect(edges(segmentLines({ ...input, music }))).toEqual([
      [320, 600],
      [606, 900],
      [906, 1100],
    ]);
  });
});
