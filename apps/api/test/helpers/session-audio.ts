import { decodeAudio } from "@parlons/aligner";
import { encodeMp3, SESSION_RATE } from "@parlons/aligner/session";

/** A lesson's audio made of tones: each line its own frequency, so that a cut is recognised by ear (by Goertzel). */
export function tonesMp3(lines: { start: number; end: number; hz: number }[], seconds: number): Uint8Array {
  const samples = new Float32Array(Math.round(seconds * SESSION_RATE));
  for (const line of lines) {
    for (let i = Math.round(line.start * SESSION_RATE); i < Math.round(line.end * SESSION_RATE); i++)
      samples[i] = 0.5 * Math.sin((2 * Math.PI * line.hz * i) / SESSION_RATE);
  }
  return encodeMp3(samples);
}

/** A stretch of the decoded audio: sound (a tone of `hz`, or speech when no tone dominates) or silence. */
export type Run =
  | { type: "silence"; seconds: number }
  | { type: "tone"; hz: number; seconds: number }
  | { type: "speech"; seconds: number };

const FRAME = SESSION_RATE / 50; // 20 ms

/** Energy of `hz` in the samples (Goertzel), as a share of their whole energy (1 for a pure tone). */
function toneShare(samples: Float32Array, hz: number): number {
  const w = (2 * Math.PI * hz) / SESSION_RATE;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  let total = 0;
  for (const x of samples) {
    const s0 = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
    total += x * x;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return total === 0 ? 0 : (2 * power) / (samples.length * total);
}

/**
 * Decodes an MP3 with the aligner's decoder and describes it as runs of sound and silence: a
 * silence is 20 ms frames under -34 dB for at least `minSilence` seconds (shorter ones, within
 * speech, belong to the sound); each sound run is the tone among `tones` that holds most of its
 * energy, or speech. The encoder's delay and padding (silence at both ends) are left out.
 */
export async function runsOf(mp3: Uint8Array, tones: number[], minSilence = 0.6): Promise<Run[]> {
  const { samples } = await decodeAudio(mp3);
  const frames = Math.floor(samples.length / FRAME);
  const loud: boolean[] = [];
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) sum += (samples[i] as number) ** 2;
    loud.push(Math.sqrt(sum / FRAME) > 0.02);
  }
  // a silence shorter than minSilence belongs to the sound around it (the breaths of speech)
  const short = Math.round((minSilence * SESSION_RATE) / FRAME);
  for (let f = 0; f < frames; ) {
    let to = f;
    while (to < frames && !loud[to]) to++;
    if (to > f && f > 0 && to < frames && to - f < short) for (let i = f; i < to; i++) loud[i] = true;
    f = to > f ? to : f + 1;
  }
  const merged: { loud: boolean; from: number; to: number }[] = [];
  for (let f = 0; f < frames; f++) {
    const last = merged.at(-1);
    if (last && last.loud === loud[f]) last.to = f + 1;
    else merged.push({ loud: loud[f] as boolean, from: f, to: f + 1 });
  }
  while (merged[0] && !merged[0].loud) merged.shift();
  while (merged.at(-1) && !merged.at(-1)?.loud) merged.pop();
  return merged.map((span): Run => {
    const seconds = ((span.to - span.from) * FRAME) / SESSION_RATE;
    if (!span.loud) return { type: "silence", seconds };
    const part = samples.subarray(span.from * FRAME, span.to * FRAME);
    const [best] = tones.map((hz) => ({ hz, share: toneShare(part, hz) })).sort((a, b) => b.share - a.share);
    return best && best.share > 0.6 ? { type: "tone", hz: best.hz, seconds } : { type: "speech", seconds };
  });
}
