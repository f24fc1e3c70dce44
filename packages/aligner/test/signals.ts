/**
 * Test signals made in the test itself: a WAV writer, and a "voice" that has what the aligner
 * relies on (syllables of a few harmonics whose pitch glides, separated by short dips) without
 * being speech, so the tests need no synthesizer.
 */
export const RATE = 16_000;

export function wav(samples: Float32Array, rate = RATE, channels = 1): Uint8Array {
  const frames = Math.floor(samples.length / channels);
  const out = new Uint8Array(44 + frames * channels * 2);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + frames * channels * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, frames * channels * 2, true);
  for (let i = 0; i < frames * channels; i++) {
    view.setInt16(44 + 2 * i, Math.round(Math.max(-1, Math.min(1, samples[i] ?? 0)) * 32767), true);
  }
  return out;
}

/** A seeded random number generator (a linear congruential one), so every run hears the same noise. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** Syllables of a gliding harmonic voice with a noise burst (a consonant) at each onset. */
export function voiced(syllables: number, random: () => number, syllableSeconds = 0.2): Float32Array {
  const out = new Float32Array(Math.round(syllables * syllableSeconds * RATE));
  const per = Math.round(syllableSeconds * RATE);
  let phase = 0;
  for (let s = 0; s < syllables; s++) {
    const f0 = 110 + random() * 60;
    const formant = 500 + random() * 1500;
    for (let i = 0; i < per; i++) {
      const t = i / per;
      const pitch = f0 * (1 + 0.25 * Math.sin(Math.PI * t) - 0.1 * t);
      phase += (2 * Math.PI * pitch) / RATE;
      // a syllable's envelope: consonant noise first, then a vowel that fades into a short dip
      const vowel = Math.sin(Math.PI * Math.min(1, t * 1.25)) ** 0.7;
      let v = 0;
      for (let h = 1; h <= 20; h++) {
        const f = h * pitch;
        if (f > 5000) break;
        v += Math.sin(h * phase) * Math.exp(-(((f - formant) / 600) ** 2)) * (1 / h + 0.3);
      }
      const consonant = t < 0.15 ? (random() * 2 - 1) * 0.3 : 0;
      out[s * per + i] = 0.25 * vowel * v + consonant;
    }
  }
  return out;
}

/** A held chord (three notes with harmonics), the kind of intro music that is not in the script. */
export function chord(seconds: number, notes = [261.6, 329.6, 392]): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    let v = 0;
    for (const f of notes)
      v += Math.sin((2 * Math.PI * f * i) / RATE) + 0.3 * Math.sin((4 * Math.PI * f * i) / RATE);
    out[i] = 0.12 * v * Math.min(1, i / 800, (out.length - i) / 800);
  }
  return out;
}

export function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const silence = (seconds: number) => new Float32Array(Math.round(seconds * RATE));
