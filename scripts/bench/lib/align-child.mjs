/**
 * Runs the aligner on corpus clips in its own process (node --import tsx, so the TypeScript
 * package loads as it is) and prints one JSON object on stdout: per clip, the starts and ends
 * found against the truth; with --peak (one clip), the peak resident memory above the process's
 * memory once the aligner was loaded (what a worker would add to an idle server).
 *
 *   node --import tsx scripts/bench/lib/align-child.mjs --mode signal|synthesis --clips a.json,b.json [--peak]
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { alignAudio, splitScript } from "@parlons/aligner";

const { values } = parseArgs({
  options: { mode: { type: "string" }, clips: { type: "string" }, peak: { type: "boolean", default: false } },
});
const mode = values.mode === "synthesis" ? "auto" : "off";

/** CPU seconds of the waited-for child processes (the synthesizer), from /proc (Linux; else 0). */
function childrenCpu() {
  if (!existsSync("/proc/self/stat")) return 0;
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  // fields 16 and 17 of stat(5) (cutime, cstime), counted after the command's closing parenthesis
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const results = [];
for (const file of values.clips.split(",")) {
  const clip = JSON.parse(readFileSync(file, "utf8"));
  const bytes = new Uint8Array(readFileSync(clip.audio));
  const lines = splitScript(readFileSync(clip.text, "utf8"), clip.lang, "lines");
  const idle = process.memoryUsage().rss;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const childCpu = childrenCpu();
  const result = await alignAudio(bytes, lines, { lang: clip.lang, synthesis: mode });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  // CPU time of this process and of the synthesizer's: less at the mercy of the machine's load
  const cpuSeconds = (used.user + used.system) / 1e6 + (childrenCpu() - childCpu);
  // the process's peak resident set so far (kB): the clip's peak when it is the first of the process
  const peak = process.resourceUsage().maxRSS * 1024;
  results.push({
    name: clip.name,
    mode: result.mode,
    seconds,
    cpuSeconds,
    extraMb: values.peak ? (peak - idle) / 1024 / 1024 : null,
    cues: result.cues.length,
    lines: lines.length,
    starts: result.cues.map((c) => c.start),
    ends: result.cues.map((c) => c.end),
    doubtful: result.cues.map((c) => c.doubtful),
    truth: clip.truth,
  });
}
process.stdout.write(`${JSON.stringify(results)}\n`);
