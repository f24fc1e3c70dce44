/**
 * Waveforms of the speaking practice: the loudest sample of each slice of a sound (its peaks),
 * drawn as bars on a canvas. Pure functions, apart from the drawing.
 */

/** The peak (largest absolute sample, 0 to 1) of each of `buckets` equal slices of `samples`. */
export function peaksOf(samples: Float32Array, buckets: number): number[] {
  const n = Math.max(1, Math.floor(buckets));
  const size = samples.length / n;
  const out: number[] = [];
  for (let b = 0; b < n; b++) {
    const from = Math.floor(b * size);
    const to = Math.max(from + 1, Math.floor((b + 1) * size));
    let peak = 0;
    for (let i = from; i < to && i < samples.length; i++) {
      const v = Math.abs(samples[i] as number);
      if (v > peak) peak = v;
    }
    out.push(Math.min(1, peak));
  }
  return out;
}

/** Peaks scaled so the loudest reaches 1 (a quiet recording still shows its shape); silence stays flat. */
export function normalise(peaks: readonly number[]): number[] {
  const max = Math.max(0, ...peaks);
  return max > 0.001 ? peaks.map((p) => p / max) : peaks.map(() => 0);
}

/** The samples of [start, end] seconds of a decoded sound, first channel. */
export function segmentSamples(
  buffer: { sampleRate: number; length: number; getChannelData(channel: number): Float32Array },
  start: number,
  end: number,
): Float32Array {
  const from = Math.max(0, Math.floor(start * buffer.sampleRate));
  const to = Math.min(buffer.length, Math.ceil(end * buffer.sampleRate));
  return buffer.getChannelData(0).subarray(from, Math.max(from, to));
}

/** A cleared canvas to draw on in its CSS size, at the screen's pixel ratio (sharp on any screen). */
export function sharpCanvas(canvas: HTMLCanvasElement) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return { ctx, width, height };
}

/** Draws the peaks as bars centred on the middle line. */
export function drawPeaks(canvas: HTMLCanvasElement, peaks: readonly number[], color: string): void {
  const sharp = sharpCanvas(canvas);
  if (!sharp) return;
  const { ctx, width, height } = sharp;
  ctx.fillStyle = color;
  const bar = width / Math.max(1, peaks.length);
  const mid = height / 2;
  peaks.forEach((p, i) => {
    const h = Math.max(1, p * (height - 2));
    ctx.fillRect(i * bar, mid - h / 2, Math.max(1, bar - 1), h);
  });
}
