import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { micProblemOf, recordingKey, recordingMimeType } from "./microphone";
import { closeRecordingsDb, localRecordings } from "./recordings-store";
import { normalise, peaksOf, segmentSamples } from "./waveform";

describe("waveform peaks", () => {
  it("keeps the loudest sample of each slice, whatever its sign", () => {
    const samples = new Float32Array([0.1, -0.5, 0.2, 0.3, 0, -0.9, 0.4, 0.1]);
    const f = (n: number) => Math.fround(n);
    expect(peaksOf(samples, 4)).toEqual([f(0.5), f(0.3), f(0.9), f(0.4)]);
    expect(peaksOf(samples, 1)).toEqual([f(0.9)]);
  });

  it("gives as many bars as asked even for a sound shorter than that", () => {
    expect(peaksOf(new Float32Array([0.5, 0.25]), 4)).toHaveLength(4);
    expect(peaksOf(new Float32Array(0), 3)).toEqual([0, 0, 0]);
  });

  it("scales a quiet recording up to full height, and leaves silence flat", () => {
    expect(normalise([0.1, 0.05, 0.2])).toEqual([0.5, 0.25, 1]);
    expect(normalise([0, 0.0001])).toEqual([0, 0]);
  });

  it("cuts the line's segment out of the decoded lesson", () => {
    const data = Float32Array.from({ length: 100 }, (_, i) => i);
    const buffer = { sampleRate: 10, length: 100, getChannelData: () => data };
    expect([...segmentSamples(buffer, 2, 3)]).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    expect(segmentSamples(buffer, 9.5, 20)).toHaveLength(5);
    expect(segmentSamples(buffer, 20, 30)).toHaveLength(0);
  });
});

describe("microphone", () => {
  it("tells a refusal from a missing, busy or unsupported microphone", () => {
    const named = (name: string) => new DOMException("x", name);
    expect(micProblemOf(named("NotAllowedError"))).toBe("denied");
    expect(micProblemOf(named("SecurityError"))).toBe("denied");
    expect(micProblemOf(named("NotFoundError"))).toBe("missing");
    expect(micProblemOf(named("NotReadableError"))).toBe("busy");
    expect(micProblemOf(new TypeError("no"))).toBe("unsupported");
    expect(micProblemOf(null)).toBe("unsupported");
  });

  it("records Opus when the browser can, else what it supports", () => {
    expect(recordingMimeType(() => true)).toBe("audio/webm;codecs=opus");
    expect(recordingMimeType((type) => type === "audio/mp4")).toBe("audio/mp4");
    expect(recordingMimeType(() => false)).toBeUndefined();
  });
});

describe("recordings on this device", () => {
  afterEach(() => closeRecordingsDb());

  it("keeps one per user, lesson and line; a new one replaces it; another user's stays apart", async () => {
    const mine = recordingKey("u1", "l1", "c1");
    const theirs = recordingKey("u2", "l1", "c1");
    const blob = (text: string) => new Blob([text], { type: "audio/webm" });
    await localRecordings.put({ key: mine, blob: blob("one"), mimeType: "audio/webm", recordedAt: 1 });
    await localRecordings.put({ key: mine, blob: blob("two"), mimeType: "audio/webm", recordedAt: 2 });
    expect((await localRecordings.get(mine))?.recordedAt).toBe(2);
    expect(await localRecordings.get(theirs)).toBeUndefined();
    await localRecordings.delete(mine);
    expect(await localRecordings.get(mine)).toBeUndefined();
  });
});
