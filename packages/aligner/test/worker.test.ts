import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { alignAudio } from "../src/align.js";
import { proposeLines } from "../src/propose.js";
import { alignInWorker, proposeInWorker } from "../src/run-in-worker.js";
import { splitScript } from "../src/script.js";

const fixtures = path.join(import.meta.dirname, "fixtures");

describe("alignInWorker", { timeout: 60_000 }, () => {
  it("aligns in a worker thread, reports progress, and keeps the calling thread free", async () => {
    const bytes = new Uint8Array(readFileSync(path.join(fixtures, "fr-pauses.mp3")));
    const lines = splitScript(readFileSync(path.join(fixtures, "fr-pauses.txt"), "utf8"), "fr", "lines");
    const progress: number[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const result = await alignInWorker(
      bytes,
      lines,
      { lang: "fr", synthesis: "off" },
      {
        execArgv: ["--import", "tsx"],
        onProgress: (f) => progress.push(f),
      },
    );
    clearInterval(timer);
    expect(result).toEqual(await alignAudio(bytes, lines, { lang: "fr", synthesis: "off" }));
    expect(progress.at(-1)).toBe(1);
    expect(ticks).toBeGreaterThan(5);
  });

  it("answers bad input with the aligner's code", async () => {
    const notAudio = new TextEncoder().encode("not audio, whatever its name says");
    await expect(
      alignInWorker(
        notAudio,
        ["Bonjour."],
        { lang: "fr", synthesis: "off" },
        { execArgv: ["--import", "tsx"] },
      ),
    ).rejects.toMatchObject({ code: "AUDIO_UNSUPPORTED" });
  });

  it("proposes the lines of audio without a script in a worker thread, with progress", async () => {
    const bytes = new Uint8Array(readFileSync(path.join(fixtures, "fr-pauses.mp3")));
    const progress: number[] = [];
    const result = await proposeInWorker(bytes, {
      execArgv: ["--import", "tsx"],
      onProgress: (f) => progress.push(f),
    });
    expect(result).toEqual(await proposeLines(bytes));
    expect(result.lines.length).toBeGreaterThan(1);
    expect(progress.length).toBeGreaterThan(0);
    await expect(proposeInWorker(new Uint8Array(8), { execArgv: ["--import", "tsx"] })).rejects.toMatchObject(
      {
        code: expect.stringMatching(/^AUDIO_/),
      },
    );
  });
});
