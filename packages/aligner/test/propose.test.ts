import { describe, expect, it } from "vitest";
import { proposeLines } from "../src/propose.js";
import { chord, concat, RATE, seeded, silence, voiced, wav } from "./signals.js";

describe("proposeLines (audio without a script)", { timeout: 30_000 }, () => {
  it("proposes one line per stretch of speech between pauses, leaving out an intro chord", async () => {
    const random = seeded(31);
    // phrases of a line are 0.1 s apart (a comma said fast); lines 0.5–0.9 s apart; one line of
    // one syllable follows the fourth closely
    const script = [[5, 3], [7], [4, 4], [6], [1]];
    const gaps = [0.6, 0.9, 0.5, 0.2, 0.7];
    const parts: Float32Array[] = [silence(0.5), chord(2), silence(0.6)];
    const starts: number[] = [];
    let t = 3.1;
    script.forEach((phrases, i) => {
      starts.push(t);
      phrases.forEach((n, k) => {
        const phrase = voiced(n, random);
        parts.push(phrase);
        t += phrase.length / RATE;
        if (k < phrases.length - 1) {
          parts.push(silence(0.1));
          t += 0.1;
        }
      });
      parts.push(silence(gaps[i] as number));
      t += gaps[i] as number;
    });
    const samples = concat(parts);
    for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] as number) + (random() * 2 - 1) * 0.003;

    const result = await proposeLines(wav(samples));

    expect(result.duration).toBeCloseTo(samples.length / RATE, 1);
    // the last, one-syllable line, after a pause (0.2 s) shorter than a boundary's, joins the fourth
    expect(result.lines).toHaveLength(4);
    result.lines.forEach((line, i) => {
      expect(Math.abs(line.start - (starts[i] as number))).toBeLessThan(0.15);
      expect(line.end).toBeGreaterThan(line.start);
    });
    expect(result.pauses.length).toBeGreaterThanOrEqual(4);
  });

  it("keeps a one-word line of 0.2 s said after a clear pause, and refuses more lines than a lesson holds", async () => {
    const random = seeded(7);
    // a line, "Oui." (0.2 s) after 0.8 s of silence, then another line after 0.8 s
    const word = voiced(1, random);
    const parts = [
      silence(0.5),
      voiced(6, random),
      silence(0.8),
      word,
      silence(0.8),
      voiced(5, random),
      silence(0.5),
    ];
    const samples = concat(parts);
    for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] as number) + (random() * 2 - 1) * 0.003;
    const wordStart = (parts[0]?.length ?? 0) / RATE + (parts[1]?.length ?? 0) / RATE + 0.8;

    const result = await proposeLines(wav(samples));
    expect(result.lines).toHaveLength(3);
    const one = result.lines[1];
    expect(Math.abs((one?.start ?? 0) - wordStart)).toBeLessThan(0.15);
    expect((one?.end ?? 0) - (one?.start ?? 0)).toBeLessThan(0.6);

    // a lesson's limit: more lines are refused, with a code and what to do, never cut short
    const refused = await proposeLines(wav(samples), { maxLines: 2 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "TOO_MANY_LINES" });
    expect(String((refused as Error).message)).toMatch(/3 lines, more than the 2 a lesson holds: cut it/);
    expect((await proposeLines(wav(samples), { maxLines: 3 })).lines).toHaveLength(3);
  });
});
