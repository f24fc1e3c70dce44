import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");
const fixture = (file: string) => path.join(import.meta.dirname, "fixtures", file);

/** `npm run -s align -- …` from the repository's root, as an operator types it. */
function align(...args: string[]) {
  return run("npm", ["run", "-s", "align", "--", ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });
}

// each case starts npm, then tsx: seconds on a loaded machine
describe("npm run align", { timeout: 60_000 }, () => {
  it("prints WebVTT on stdout, one cue per line of the text file, in order", async () => {
    const { stdout, stderr } = await align(
      fixture("fr-pauses.mp3"),
      fixture("fr-pauses.txt"),
      "--lang",
      "fr",
      "--signal-only",
    );
    const lines = readFileSync(fixture("fr-pauses.txt"), "utf8").trim().split("\n");
    expect(stdout.startsWith("WEBVTT\n\n")).toBe(true);
    const blocks = stdout.slice("WEBVTT\n\n".length).trimEnd().split("\n\n");
    expect(blocks).toHaveLength(lines.length);
    let previousEnd = 0;
    blocks.forEach((block, i) => {
      const [id, timing, text, ...rest] = block.split("\n");
      expect(id).toBe(String(i + 1));
      const m = /^(\d\d):(\d\d):(\d\d)\.(\d\d\d) --> (\d\d):(\d\d):(\d\d)\.(\d\d\d)$/.exec(timing ?? "");
      expect(m, timing).not.toBeNull();
      const seconds = (h: string, mi: string, s: string, ms: string) =>
        Number(h) * 3600 + Number(mi) * 60 + Number(s) + Number(ms) / 1000;
      const [, h1, m1, s1, ms1, h2, m2, s2, ms2] = m as RegExpExecArray;
      const start = seconds(h1 as string, m1 as string, s1 as string, ms1 as string);
      const end = seconds(h2 as string, m2 as string, s2 as string, ms2 as string);
      expect(start).toBeGreaterThanOrEqual(previousEnd);
      expect(end).toBeGreaterThan(start);
      previousEnd = end;
      expect(text).toBe(lines[i]);
      expect(rest).toEqual([]);
    });
    expect(stderr).toMatch(/mode signal/);
  });

  it("answers a usage error with exit code 2", async () => {
    await expect(
      align(fixture("fr-pauses.mp3"), fixture("fr-pauses.txt"), "--lang", "de"),
    ).rejects.toMatchObject({ code: 2 });
    await expect(align(fixture("fr-pauses.mp3"))).rejects.toMatchObject({ code: 2 });
  });

  it("answers audio it cannot decode with exit code 1 and the reason", async () => {
    await expect(align(fixture("fr-pauses.txt"), fixture("fr-pauses.txt"))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/AUDIO_UNSUPPORTED/),
    });
  });
});
