/**
 * node scripts/demo-audio.mjs [SLUG…] [--lesson=FILE]
 *
 * Rebuilds the demo courses' audio and line times from their scripts,
 * apps/api/seed-media/demo/<slug>.json (one entry per line: speaker, text, translations):
 * 1. each line is spoken by espeak-ng (the lesson's voice and speed for its speaker), trimmed of
 *    its silence, and followed by a pause to repeat it (1.2 times its own length plus 1 s, at least 2 s);
 * 2. the lesson is encoded as mono MP3 (lame, 16 kHz, 24 kbit/s) into <slug>/<file>.mp3;
 * 3. the line times come from Parlons's own aligner, not from the synthesizer: `npm run align`'s
 *    CLI (signal mode, so that the test re-running it on the committed MP3 needs no espeak-ng)
 *    writes <slug>/<file>.vtt, and the run fails if a line starts more than 250 ms or ends more
 *    than 350 ms away from where the synthesizer put it (the accuracy targets);
 * 4. <slug>/audio.json records each file's duration and size, read by the seed.
 * Needs espeak-ng and lame (Debian: apt-get install espeak-ng lame); `npm start` does not.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const demoDir = path.join(root, "apps/api/seed-media/demo");
const cli = path.join(root, "packages/aligner/src/cli.ts");
const RATE = 22050; // espeak-ng's output rate
const LEAD_SECONDS = 0.8;
const TAIL_SECONDS = 1.0;
const START_TOLERANCE = 0.25;
const END_TOLERANCE = 0.35;

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--lesson="))?.slice("--lesson=".length);
const slugs = args.filter((a) => !a.startsWith("--"));

/** The 16-bit mono samples of the WAV espeak-ng writes for `text`. */
function speak(text, { voice, speed }) {
  const wav = execFileSync("espeak-ng", ["-v", voice, "-s", String(speed), "--stdout", text], {
    maxBuffer: 64 << 20,
  });
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString("latin1", at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    // espeak-ng writing to a pipe leaves the data size at its maximum: the data runs to the end
    if (id === "data")
      return new Int16Array(
        wav.buffer.slice(wav.byteOffset + at + 8, wav.byteOffset + wav.length - ((wav.length - at - 8) % 2)),
      );
    at += 8 + size + (size % 2);
  }
  throw new Error(`no audio from espeak-ng for ${JSON.stringify(text)}`);
}

/** The samples from the first to the last one louder than -40 dBFS. */
function trim(samples) {
  const loud = (s) => Math.abs(s) > 328;
  let first = samples.findIndex(loud);
  if (first === -1) first = 0;
  let last = samples.length - 1;
  while (last > first && !loud(samples[last])) last -= 1;
  return samples.subarray(first, last + 1);
}

function wavFile(samples) {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

const vttSeconds = (t) => {
  const [h, m, s] = t.split(":");
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
};

function buildLesson(course, lesson, outDir, work) {
  const parts = [];
  const truth = [];
  let length = Math.round(LEAD_SECONDS * RATE);
  parts.push(new Int16Array(length));
  for (const line of lesson.lines) {
    const voice = lesson.voices[line.speaker];
    if (!voice) throw new Error(`${lesson.file}: no voice for speaker ${line.speaker}`);
    const said = trim(speak(line.text, voice));
    const seconds = said.length / RATE;
    truth.push({ start: length / RATE, end: length / RATE + seconds });
    const pause = new Int16Array(Math.round(Math.max(2, 1 + 1.2 * seconds) * RATE));
    parts.push(said, pause);
    length += said.length + pause.length;
  }
  parts.push(new Int16Array(Math.round(TAIL_SECONDS * RATE)));
  const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const wav = path.join(work, `${lesson.file}.wav`);
  const mp3 = path.join(outDir, `${lesson.file}.mp3`);
  const script = path.join(work, `${lesson.file}.txt`);
  writeFileSync(wav, wavFile(all));
  execFileSync("lame", ["--quiet", "-m", "m", "--resample", "16", "-b", "24", "--noreplaygain", wav, mp3]);
  writeFileSync(script, `${lesson.lines.map((l) => l.text).join("\n")}\n`);
  const vtt = execFileSync(
    process.execPath,
    ["--import", "tsx", cli, mp3, script, "--lang", course.target_language, "--signal-only"],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  writeFileSync(path.join(outDir, `${lesson.file}.vtt`), vtt);

  const cues = [...vtt.matchAll(/^([\d:.]+) --> ([\d:.]+)$/gm)].map((m) => ({
    start: vttSeconds(m[1]),
    end: vttSeconds(m[2]),
  }));
  if (cues.length !== truth.length)
    throw new Error(`${lesson.file}: ${cues.length} cues for ${truth.length} lines`);
  const startErrors = cues.map((c, i) => Math.abs(c.start - truth[i].start));
  const endErrors = cues.map((c, i) => Math.abs(c.end - truth[i].end));
  const seconds = all.length / RATE;
  const worst = (errors) => Math.max(...errors).toFixed(3);
  console.log(
    `${course.slug}/${lesson.file}: ${seconds.toFixed(1)} s, ${lesson.lines.length} lines, ` +
      `${statSync(mp3).size} bytes; aligner vs synthesizer: worst start ${worst(startErrors)} s, worst end ${worst(endErrors)} s`,
  );
  const off = cues.flatMap((c, i) =>
    startErrors[i] > START_TOLERANCE || endErrors[i] > END_TOLERANCE
      ? [
          `line ${i + 1} aligned ${c.start}–${c.end}, spoken ${truth[i].start.toFixed(3)}–${truth[i].end.toFixed(3)}`,
        ]
      : [],
  );
  if (off.length) throw new Error(`${lesson.file}: the aligner missed\n  ${off.join("\n  ")}`);
  return { seconds: Math.round(seconds * 1000) / 1000, bytes: statSync(mp3).size };
}

const files = readdirSync(demoDir).filter(
  (f) => f.endsWith(".json") && (!slugs.length || slugs.includes(f.slice(0, -5))),
);
const work = mkdtempSync(path.join(tmpdir(), "parlons-demo-"));
try {
  for (const file of files) {
    const course = JSON.parse(readFileSync(path.join(demoDir, file), "utf8"));
    const outDir = path.join(demoDir, course.slug);
    mkdirSync(outDir, { recursive: true });
    const manifestFile = path.join(outDir, "audio.json");
    let manifest = {};
    try {
      manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
    } catch {
      // first build
    }
    for (const lesson of course.lessons) {
      if (only && lesson.file !== only) continue;
      manifest[lesson.file] = buildLesson(course, lesson, outDir, work);
    }
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
