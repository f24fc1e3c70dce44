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
});
