import { describe, expect, it } from "vitest";
import { AudioDecodeError, decodeAudio, sniffFormat } from "../src/decode.js";
import { wav } from "./signals.js";

describe("decodeAudio", () => {
  it("mixes a 44.1 kHz stereo WAV down to 16 kHz mono and keeps its pitch", async () => {
    const rate = 44_100;
    const seconds = 1.5;
    const n = Math.round(rate * seconds);
    const interleaved = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      const v = 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate);
      interleaved[2 * i] = v;
      interleaved[2 * i + 1] = v;
    }
    const decoded = await decodeAudio(wav(interleaved, rate, 2));
    expect(decoded.format).toBe("wav");
    expect(decoded.sampleRate).toBe(16_000);
    expect(decoded.duration).toBeCloseTo(seconds, 2);
    // 440 Hz: 880 zero crossings a second
    let crossings = 0;
    for (let i = 1; i < decoded.samples.length; i++) {
      if ((decoded.samples[i - 1] as number) < 0 !== (decoded.samples[i] as number) < 0) crossings++;
    }
    expect(crossings / decoded.duration).toBeGreaterThan(870);
    expect(crossings / decoded.duration).toBeLessThan(890);
    const peak = decoded.samples.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    expect(peak).toBeGreaterThan(0.45);
    expect(peak).toBeLessThan(0.55);
  });

  it("refuses what is not audio, by its bytes", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.4 not audio at all, whatever the file is called");
    expect(sniffFormat(pdf)).toBeNull();
    await expect(decodeAudio(pdf)).rejects.toBeInstanceOf(AudioDecodeError);
    await expect(decodeAudio(pdf)).rejects.toMatchObject({ code: "AUDIO_UNSUPPORTED" });
  });

  it("refuses a WAV too short to align", async () => {
    await expect(decodeAudio(wav(new Float32Array(100)))).rejects.toMatchObject({ code: "AUDIO_EMPTY" });
  });
});
