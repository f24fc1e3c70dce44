import { describe, expect, it } from "vitest";
import { comparePronunciation } from "./compare";
import { dtw } from "./dtw";
import { pitchTrack } from "./pitch";
import { RATE, resample } from "./signal";
import { stretchesOf } from "./stretches";

/** Formants (Hz) of a few vowels: enough for "sounds" that differ the way speech sounds do. */
const VOWELS: Record<string, [number, number]> = {
  a: [750, 1300],
  i: [300, 2300],
  u: [320, 800],
  e: [450, 2000],
  o: [500, 900],
};

interface Voice {
  /** pitch at the start and at the end of each syllable, Hz */
  pitch: (syllable: number) => [number, number];
  /** seconds per syllable */
  length: (syllable: number) => number;
  rate?: number;
  noise?: number;
}

/**
 * A voiced "sentence": one syllable per vowel (harmonics of a gliding pitch shaped by the vowel's
 * two formants, with a rise and fall of loudness), 60 ms of silence between words of two
 * syllables, 300 ms of quiet before and after.
 */
function sentence(vowels: string, voice: Voice): Float32Array {
  const rate = voice.rate ?? RATE;
  const out: number[] = [];
  let seed = 1;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  };
  const quiet = (seconds: number) => {
    for (let i = 0; i < seconds * rate; i++) out.push((voice.noise ?? 0) * random());
  };
  quiet(0.3);
  [...vowels].forEach((v, k) => {
    const [f1, f2] = VOWELS[v] as [number, number];
    const [p0, p1] = voice.pitch(k);
    const n = Math.round(voice.length(k) * rate);
    let phase = 0;
    for (let i = 0; i < n; i++) {
      const f0 = p0 + ((p1 - p0) * i) / n;
      phase += (2 * Math.PI * f0) / rate;
      let x = 0;
      for (let h = 1; h * f0 < 4000; h++) {
        const f = h * f0;
        const gain = 1 / (1 + ((f - f1) / 90) ** 2) + 0.7 / (1 + ((f - f2) / 120) ** 2);
        x += gain * Math.sin(h * phase);
      }
      out.push(0.2 * x * Math.sin((Math.PI * i) / n) + (voice.noise ?? 0) * random());
    }
    if (k % 2 === 1) quiet(0.06);
  });
  quiet(0.3);
  return Float32Array.from(out);
}

const model: Voice = { pitch: (k) => [120 + 10 * k, 130 + 10 * k], length: () => 0.22 };
const learner: Voice = {
  pitch: (k) => [200 + 16 * k, 215 + 16 * k],
  length: () => 0.24,
  rate: 48_000,
  noise: 0.002,
};
const LINE = "aiueoaeuio";
const OTHER = "ouaieiaoue";

const score = (a: Float32Array, b: Float32Array, bRate = 48_000) => comparePronunciation(a, RATE, b, bRate);

describe("pronunciation score", () => {
  const line = sentence(LINE, model);

  it("scores another voice saying the same line high, and above the same voice saying another line", () => {
    const same = score(line, sentence(LINE, learner));
    const other = score(line, sentence(OTHER, learner));
    expect(same.score).toBeGreaterThanOrEqual(70);
    expect(same.score).toBeGreaterThan((other.score as number) + 15);
    expect(same.parts?.melody).toBeGreaterThanOrEqual(80);
  });

  it("scores a slower or faster saying of the same line high, and says how much slower", () => {
    const slow = score(line, sentence(LINE, { ...learner, length: () => 0.35 }));
    const fast = score(line, sentence(LINE, { ...learner, length: () => 0.16 }));
    expect(slow.score).toBeGreaterThanOrEqual(65);
    expect(fast.score).toBeGreaterThanOrEqual(65);
    expect(slow.pace).toBeGreaterThan(1.4);
    expect(fast.pace).toBeLessThan(0.8);
    expect(slow.advice.key).toBe("tooSlow");
    // the stretches keep their proportions once the overall pace is set aside
    for (const s of slow.stretches) expect(s.relative).toBeCloseTo(1, 0);
  });

  it("finds the stretch said out of step with the rest", () => {
    const dragging = score(
      line,
      sentence(LINE, { ...learner, length: (k) => (k >= 4 && k < 6 ? 0.5 : 0.22) }),
    );
    expect(dragging.stretches.length).toBeGreaterThanOrEqual(3);
    expect(dragging.stretches[1]?.relative).toBeGreaterThan(1.5);
    expect(dragging.parts?.rhythm).toBeLessThan(70);
    expect(dragging.advice).toEqual({ key: "stretchSlow", stretch: 2 });
  });

  it("hears a flat voice as a weaker melody than one that follows the line", () => {
    const rising: Voice = { ...model, pitch: (k) => [110 + 25 * k, 125 + 25 * k] };
    const line = sentence(LINE, rising);
    const follows = score(line, sentence(LINE, { ...learner, pitch: (k) => [180 + 40 * k, 205 + 40 * k] }));
    const flat = score(line, sentence(LINE, { ...learner, pitch: () => [240, 240] }));
    expect(follows.parts?.melody).toBeGreaterThan((flat.parts?.melody as number) + 30);
    expect(follows.contour?.model.some((v) => v !== null)).toBe(true);
    expect(follows.contour?.learner.some((v) => v !== null)).toBe(true);
  });

  it("gives no score but advice when the recording holds no voice", () => {
    const silence = new Float32Array(48_000 * 2).map(() => (Math.random() - 0.5) * 0.001);
    const result = score(line, silence);
    expect(result.score).toBeNull();
    expect(result.advice.key).toBe("noVoice");
  });
});

describe("the pieces", () => {
  it("aligns a sequence with a stretched copy of itself at no cost, start to start and end to end", () => {
    const a = Float32Array.from([0, 1, 2, 3]);
    const b = Float32Array.from([0, 0, 1, 1, 2, 2, 3, 3]);
    const { path, distance } = dtw(a, b, 1);
    expect(distance).toBe(0);
    expect(path[0]).toEqual([0, 0]);
    expect(path[path.length - 1]).toEqual([3, 7]);
    for (let k = 1; k < path.length; k++) {
      const [i, j] = path[k] as [number, number];
      const [pi, pj] = path[k - 1] as [number, number];
      expect(i - pi).toBeGreaterThanOrEqual(0);
      expect(j - pj).toBeGreaterThanOrEqual(0);
    }
    expect(dtw(a, Float32Array.from([3, 2, 1, 0]), 1).distance).toBeGreaterThan(1);
  });

  it("resamples to 16 kHz keeping the frequency", () => {
    const tone = Float32Array.from({ length: 48_000 }, (_, i) => Math.sin((2 * Math.PI * 200 * i) / 48_000));
    const out = resample(tone, 48_000);
    expect(out.length).toBe(16_000);
    let crossings = 0;
    for (let i = 1; i < out.length; i++)
      if ((out[i - 1] as number) < 0 && (out[i] as number) >= 0) crossings++;
    expect(crossings).toBeGreaterThanOrEqual(199);
    expect(crossings).toBeLessThanOrEqual(201);
  });

  it("tracks the pitch of a voiced sound", () => {
    const tone = Float32Array.from({ length: RATE }, (_, i) => {
      const t = i / RATE;
      return 0.3 * Math.sin(2 * Math.PI * 150 * t) + 0.2 * Math.sin(2 * Math.PI * 300 * t);
    });
    const pitch = pitchTrack(tone, new Uint8Array(98).fill(1), 0, 98).filter((v) => v !== null);
    expect(pitch.length).toBeGreaterThan(80);
    for (const v of pitch) expect(v).toBeCloseTo(150, -1);
  });

  it("cuts the line at its pauses, and long stretches at their quietest point", () => {
    const voiced = Uint8Array.from([...Array(50).fill(1), ...Array(20).fill(0), ...Array(200).fill(1)]);
    const energies = Float64Array.from(voiced, (v, i) => (v ? (i === 170 ? -30 : -10) : -60));
    expect(stretchesOf(voiced, energies)).toEqual([
      [0, 50],
      [70, 170],
      [170, 270],
    ]);
  });
});
