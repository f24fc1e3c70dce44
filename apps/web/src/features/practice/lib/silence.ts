/**
 * A silent WAV of `seconds` (8 kHz, 8-bit mono: 8 KB a second) as an object URL. The hands-free
 * session plays its pauses as audio rather than waiting on a timer: a page playing audio keeps its
 * timers and its Media Session alive with the screen locked.
 */
export function silenceUrl(seconds: number): string {
  const rate = 8000;
  const samples = Math.max(1, Math.round(seconds * rate));
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples, true);
  ascii(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true); // bytes per second
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, samples, true);
  bytes.fill(128, 44); // 8-bit PCM's silence
  return URL.createObjectURL(new Blob([bytes], { type: "audio/wav" }));
}
