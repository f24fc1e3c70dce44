// Alignment (issue 22): accuracy on a corpus with known truth, and the time and memory of a
// 10-minute lesson, each in both modes: "signal" (what `npm install` alone gives) and "synthesis"
// (espeak-ng installed, used as a reference voice). The corpus is built with espeak-ng, sox and
// lame into .cache/align-corpus (scripts/bench/lib/align-corpus.mjs); without them this figure
// says so and measures nothing. ALIGN_CLIPS=fr-clear,dialog limits the clips (while iterating).
// The held-out clips (lib/align-heldout.mjs: other lines, voices, tempo, pitch and beds) are
// scored apart, and so are the fresh ones (lib/align-fresh.mjs: drums, telephone band, the fastest
// reading), made after the held-out set had been used while changing the method.
import { execFileSync, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { buildCorpus, buildLongLesson } from "../lib/align-corpus.mjs";
import { buildFresh } from "../lib/align-fresh.mjs";
import { buildHeldOut } from "../lib/align-heldout.mjs";
import { buildUnseen } from "../lib/align-unseen.mjs";
import { root } from "../lib/processes.mjs";

export const name = "align";
/** CPU-bound and alone on the machine's cores: measured without the shared server running. */
export const alone = true;

const has = (tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;

function runChild(mode, clips, peak = false) {
  const out = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(root, "scripts/bench/lib/align-child.mjs"),
      "--mode",
      mode,
      "--clips",
      clips.map((c) => c.meta).join(","),
      ...(peak ? ["--peak"] : []),
    ],
    { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(out);
}

/** Share of cues within tolerance, per clip and over all. */
export function score(results) {
  let starts = 0;
  let ends = 0;
  let total = 0;
  let worst = 1;
  let countRight = 0;
  for (const r of results) {
    const n = r.truth.starts.length;
    let s = 0;
    let e = 0;
    for (let i = 0; i < n; i++) {
      if (Math.abs((r.starts[i] ?? Number.NaN) - r.truth.starts[i]) <= 0.25) s++;
      if (Math.abs((r.ends[i] ?? Number.NaN) - r.truth.ends[i]) <= 0.35) e++;
    }
    starts += s;
    ends += e;
    total += n;
    worst = Math.min(worst, s / n);
    if (r.cues === n) countRight++;
  }
  return {
    starts: (100 * starts) / total,
    ends: (100 * ends) / total,
    worst: 100 * worst,
    countRight,
    clips: results.length,
  };
}

function accuracyRows(label, part, results) {
  const s = score(results);
  const worstClip = results.map((r) => ({ name: r.name, s: score([r]).starts })).sort((a, b) => a.s - b.s)[0];
  return [
    {
      figure: `${label}${part}: starts within 250 ms`,
      ours: s.starts,
      unit: "%",
      target: "ours>=95",
      note: `${s.clips} clips`,
    },
    { figure: `${label}${part}: ends within 350 ms`, ours: s.ends, unit: "%", target: "ours>=90" },
    {
      figure: `${label}${part}: starts right on the worst clip`,
      ours: s.worst,
      unit: "%",
      target: "ours>=50",
      note: `${worstClip?.name}; cue count right on ${s.countRight}/${s.clips} clips`,
    },
  ];
}

export async function run(ctx) {
  for (const tool of ["espeak-ng", "sox", "lame"]) {
    if (!has(tool)) return [{ figure: "align (skipped)", note: `${tool} is needed to build the corpus` }];
  }
  const dir = path.join(root, ".cache/align-corpus");
  const only = process.env.ALIGN_CLIPS?.split(",").filter(Boolean);
  const clips = buildCorpus({ dir, log: ctx.log, only });
  const heldOut = buildHeldOut({ dir, log: ctx.log, only });
  const fresh = buildFresh({ dir, log: ctx.log, only });
  const unseen = buildUnseen({ dir, log: ctx.log, only });
  const long = only ? null : buildLongLesson({ dir, log: ctx.log });
  const rows = [];
  for (const mode of ["signal", "synthesis"]) {
    ctx.log(`align: ${mode}, ${clips.length} clips`);
    const results = runChild(mode, clips);
    for (const r of results) {
      const c = score([r]);
      ctx.log(
        `  ${r.name}: starts ${c.starts.toFixed(0)} %, ends ${c.ends.toFixed(0)} %, ${r.seconds.toFixed(2)} s`,
      );
    }
    const ran = results.every((r) => r.mode === mode);
    const label = `align ${mode}${ran ? "" : " (ran as signal)"}`;
    rows.push(...accuracyRows(label, "", results));
    for (const [part, set] of [
      [" (held out)", heldOut],
      [" (fresh)", fresh],
      [" (unseen)", unseen],
    ]) {
      if (set.length === 0) continue;
      const held = runChild(mode, set);
      for (const r of held) {
        const c = score([r]);
        ctx.log(`  ${r.name}: starts ${c.starts.toFixed(0)} %, ends ${c.ends.toFixed(0)} %`);
      }
      rows.push(...accuracyRows(label, part, held));
    }
    if (long) {
      const [r] = runChild(mode, [long], true);
      const ls = score([r]);
      rows.push(
        {
          figure: `${label}: 10-minute lesson time`,
          ours: r.seconds,
          unit: "s",
          target: "ours<=15",
          note: `${r.cues} cues, ${long.duration.toFixed(0)} s of 44.1 kHz stereo MP3; starts ${ls.starts.toFixed(1)} %, ends ${ls.ends.toFixed(1)} %; load average ${os.loadavg()[0].toFixed(1)}`,
        },
        {
          figure: `${label}: 10-minute lesson CPU time`,
          ours: r.cpuSeconds,
          unit: "s",
          target: "ours<=15",
          note: "the aligner's and the synthesizer's processes: the wall time of an idle machine",
        },
        {
          figure: `${label}: 10-minute lesson extra memory`,
          ours: r.extraMb,
          unit: "MB",
          target: "ours<=300",
          note: "peak RSS above the loaded aligner's",
        },
      );
    }
  }
  return rows;
}
