import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { alignAudio } from "../src/align.js";
import { splitScript } from "../src/script.js";
import { findSynthesizer } from "../src/synthesis.js";
import { chord, concat, RATE, seeded, silence, voiced, wav } from "./signals.js";

const fixtures = path.join(import.meta.dirname, "fixtures");

/** Lines of nonsense syllables, one per burst of the test voice ("pa" is one syllable in every language). */
const lineOf = (n: number) => `${Array.from({ length: n }, () => "pa").join(" ")}.`;

function within(found: number[], truth: number[], tolerance: number) {
  return found.filter((f, i) => Math.abs(f - (truth[i] as number)) <= tolerance).length;
}

describe("alignAudio on generated signals", { timeout: 30_000 }, () => {
  it("finds each line after leading silence and an intro chord, with a one-syllable line", async () => {
    const random = seeded(7);
    const counts = [6, 1, 9, 4, 7];
    const gaps = [0.6, 0.45, 0.8, 0.5, 0.7];
    const parts: Float32Array[] = [silence(1), chord(2), silence(0.4)];
    const starts: number[] = [];
    const ends: number[] = [];
    let t = 3.4;
    counts.forEach((n, i) => {
      const line = voiced(n, random);
      parts.push(line, silence(gaps[i] as number));
      starts.push(t);
      t += line.length / RATE;
      ends.push(t);
      t += gaps[i] as number;
    });
    const samples = concat(parts);
    // a little noise under everything
    for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] as number) + (random() * 2 - 1) * 0.003;

    const result = await alignAudio(wav(samples), counts.map(lineOf), { lang: "fr", synthesis: "off" });

    expect(result.mode).toBe("signal");
    expect(result.cues).toHaveLength(counts.length);
    expect(result.duration).toBeCloseTo(samples.length / RATE, 1);
    const found = result.cues.map((c) => c.start);
    expect(within(found, starts, 0.25)).toBe(counts.length);
    expect(
      within(
        result.cues.map((c) => c.end),
        ends,
        0.35,
      ),
    ).toBe(counts.length);
    for (const cue of result.cues) {
      expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.confidence).toBeGreaterThan(0);
      expect(cue.confidence).toBeLessThanOrEqual(1);
    }
  });

  it("places lines read continuously, whose commas pause longer than the gaps between lines", async () => {
    const random = seeded(11);
    // syllables per phrase; a line's phrases are separated by commas (a 0.3 s pause), the lines
    // by 50–80 ms, under pink-ish noise: only the lines' lengths tell the junctions from the commas
    const script = [[4, 3], [1], [5, 2, 3], [2], [3, 4], [6], [1], [2, 5], [3, 3, 2], [1]];
    const parts: Float32Array[] = [silence(0.4)];
    const starts: number[] = [];
    const ends: number[] = [];
    let t = 0.4;
    script.forEach((phrases) => {
      starts.push(t);
      phrases.forEach((n, k) => {
        const phrase = voiced(n, random, 0.16 + random() * 0.06);
        parts.push(phrase);
        t += phrase.length / RATE;
        if (k < phrases.length - 1) {
          parts.push(silence(0.3));
          t += 0.3;
        }
      });
      ends.push(t);
      const gap = 0.05 + random() * 0.03;
      parts.push(silence(gap));
      t += gap;
    });
    parts.push(silence(0.5));
    const samples = concat(parts);
    for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] as number) + (random() * 2 - 1) * 0.01;
    const lines = script.map((phrases) => `${phrases.map((n) => lineOf(n).slice(0, -1)).join(", ")}.`);

    const result = await alignAudio(wav(samples), lines, { lang: "fr", synthesis: "off" });

    expect(result.cues).toHaveLength(lines.length);
    expect(
      within(
        result.cues.map((c) => c.start),
        starts,
        0.25,
      ),
    ).toBe(lines.length);
    expect(
      within(
        result.cues.map((c) => c.end),
        ends,
        0.35,
      ),
    ).toBe(lines.length);
  });

  it("flags a line as doubtful when the script does not match the audio", async () => {
    const random = seeded(3);
    // three lines said, but the script has a long line where a one-syllable line was said
    const samples = concat([
      silence(0.5),
      voiced(5, random),
      silence(0.6),
      voiced(1, random),
      silence(0.6),
      voiced(5, random),
      silence(0.5),
    ]);
    const result = await alignAudio(wav(samples), [lineOf(5), lineOf(14), lineOf(5)], {
      lang: "en",
      synthesis: "off",
    });
    expect(result.cues).toHaveLength(3);
    expect(result.cues[1]?.doubtful).toBe(true);
    expect(result.cues[0]?.confidence).toBeGreaterThan(result.cues[1]?.confidence ?? 1);
  });

  it("refuses an empty script and more lines than the audio can hold", async () => {
    const audio = wav(concat([silence(0.2), voiced(2, seeded(1)), silence(0.2)]));
    await expect(alignAudio(audio, [], { lang: "fr", synthesis: "off" })).rejects.toMatchObject({
      code: "SCRIPT_EMPTY",
    });
    const many = Array.from({ length: 40 }, () => "pa.");
    await expect(alignAudio(audio, many, { lang: "fr", synthesis: "off" })).rejects.toMatchObject({
      code: "SCRIPT_TOO_LONG",
    });
  });
});

describe("alignAudio on recorded clips (synthesized speech, committed MP3)", { timeout: 30_000 }, () => {
  for (const [name, lang] of [
    ["fr-pauses", "fr"],
    ["en-noise", "en"],
  ] as const) {
    it(`${name}: the starts and ends of every line`, async () => {
      const truth = JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), "utf8")) as {
        starts: number[];
        ends: number[];
      };
      const lines = splitScript(readFileSync(path.join(fixtures, `${name}.txt`), "utf8"), lang, "lines");
      const bytes = new Uint8Array(readFileSync(path.join(fixtures, `${name}.mp3`)));
      const result = await alignAudio(bytes, lines, { lang, synthesis: "off" });
      expect(result.cues.map((c) => c.text)).toEqual(lines);
      expect(
        within(
          result.cues.map((c) => c.start),
          truth.starts,
          0.25,
        ),
      ).toBeGreaterThanOrEqual(lines.length - (name === "en-noise" ? 1 : 0));
      expect(
        within(
          result.cues.map((c) => c.end),
          truth.ends,
          0.35,
        ),
      ).toBeGreaterThanOrEqual(lines.length - (name === "en-noise" ? 1 : 0));
    });
  }
});

describe("synthesis mode", { timeout: 60_000 }, () => {
  const clip = (name: string, lang: "fr" | "en") => ({
    truth: JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), "utf8")) as {
      starts: number[];
      ends: number[];
    },
    lines: splitScript(readFileSync(path.join(fixtures, `${name}.txt`), "utf8"), lang, "lines"),
    bytes: new Uint8Array(readFileSync(path.join(fixtures, `${name}.mp3`))),
  });

  it("falls back to signal analysis, and says so, when the synthesizer cannot run", async () => {
    const { lines, bytes, truth } = clip("fr-pauses", "fr");
    const result = await alignAudio(bytes, lines, {
      lang: "fr",
      synthesis: { command: "/nonexistent/espeak-ng" },
    });
    expect(result.mode).toBe("signal");
    expect(
      within(
        result.cues.map((c) => c.start),
        truth.starts,
        0.25,
      ),
    ).toBe(lines.length);
  });

  // espeak-ng is optional for Parlons (signal mode works without it); where it is installed, as on
  // the machines that build the benchmark corpus, it is used and must place every line
  it.skipIf(!findSynthesizer())("uses espeak-ng as a reference voice when it is installed", async () => {
    for (const [name, lang] of [
      ["fr-pauses", "fr"],
      ["en-noise", "en"],
    ] as const) {
      const { lines, bytes, truth } = clip(name, lang);
      const result = await alignAudio(bytes, lines, { lang, synthesis: "auto" });
      expect(result.mode).toBe("synthesis");
      expect(
        within(
          result.cues.map((c) => c.start),
          truth.starts,
          0.25,
        ),
      ).toBe(lines.length);
      expect(
        within(
          result.cues.map((c) => c.end),
          truth.ends,
          0.35,
        ),
      ).toBe(lines.length);
    }
  });
});
