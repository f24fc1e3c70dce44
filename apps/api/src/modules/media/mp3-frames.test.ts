import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mp3HeadThen as headThen, taggedVbrMp3 as tagged, toneMp3 } from "../../../test/helpers/learning";
import { plausibleMp3, walkMp3Frames } from "./mp3-frames";

// The frames of an MP3 from end to end: what tells audio from a header in front of anything (issue 25).

describe("walkMp3Frames", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "parlons-frames-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const walk = async (bytes: Buffer) => {
    const file = path.join(dir, randomBytes(4).toString("hex"));
    writeFileSync(file, bytes);
    return walkMp3Frames(file, bytes.length);
  };

  it("finds every frame of real MP3s, tags aside, and their duration", async () => {
    const tone = await walk(toneMp3());
    expect(tone.frameBytes).toBe(tone.audioBytes);
    expect(tone.seconds).toBeCloseTo(10, 0);
    expect(plausibleMp3(tone)).toBe(true);
    const withTags = await walk(tagged());
    expect(withTags.audioBytes).toBeLessThan(tagged().length); // the ID3v2 and ID3v1 tags are not audio
    expect(withTags.frameBytes).toBe(withTags.audioBytes);
    expect(withTags.seconds).toBeCloseTo(3, 0);
    expect(plausibleMp3(withTags)).toBe(true);
  });

  it("tells a header followed by zeros, random bytes or half junk from audio", async () => {
    for (const bytes of [
      headThen(Buffer.alloc(3_000_000)),
      headThen(randomBytes(3_000_000)),
      Buffer.concat([toneMp3(), randomBytes(toneMp3().length)]),
    ]) {
      const found = await walk(bytes);
      expect(found.frameBytes / found.audioBytes).toBeLessThan(0.6);
      expect(plausibleMp3(found)).toBe(false);
    }
  });
});
