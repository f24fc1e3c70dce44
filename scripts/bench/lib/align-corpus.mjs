/**
 * The alignment corpus: clips with known truth, built with espeak-ng (several voices and speeds,
 * fr/en/es), sox (trimming, resampling, Ogg) and lame (MP3), into a cache folder (never committed).
 *
 * Each line is synthesized alone, trimmed of its silence, and the clip is assembled by
 * concatenation: the truth of a cue is the offset where its samples were put, and its end that
 * offset plus its length. Around the voice: leading silence, an intro jingle that is not in the
 * script, gaps from clear (up to 1.2 s) to continuous (under 150 ms), and a bed of pink noise,
 * held chords or a melody mixed under the voice. Music and noise are generated here (seeded), so
 * the corpus is the same on every machine with the same espeak-ng.
 *
 *   buildCorpus({ dir, log })        → [{ name, lang, audio, text, truth: { starts, ends }, … }]
 *   buildLongLesson({ dir, log })    → the same for one 10-minute lesson (timing and memory)
 *   (held-out clips, with other lines, voices and effects: align-heldout.mjs)
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { texts } from "./align-texts.mjs";

const RATE = 16_000;
const VERSION = 1;

/** Clips per language: [name, options]. Voices are espeak-ng variants unlike its default voice. */
const voices = {
  fr: ["fr+f3", "fr+m3", "fr+klatt3"],
  en: ["en-us+f2", "en-gb+m2", "en+klatt"],
  es: ["es+f4", "es-419+m1", "es+klatt2"],
};
const clipKinds = [
  ["clear", { voices: [0], speed: 160, gap: [0.5, 1.2], lead: 1.5, format: "mp3" }],
  ["continuous", { voices: [1], speed: 175, gap: [0.03, 0.14], lead: 0.3, format: "wav" }],
  [
    "fast-noise",
    { voices: [2], speed: 235, gap: [0.15, 0.4], lead: 0.8, bed: "noise", bedDb: -20, format: "mp3" },
  ],
  [
    "slow-chords",
    { voices: [0], speed: 110, gap: [0.3, 0.8], lead: 1.0, bed: "chords", bedDb: -14, format: "ogg" },
  ],
  [
    "dialog-melody",
    {
      voices: [0, 1],
      speed: 155,
      gap: [0.2, 0.6],
      lead: 0.4,
      jingle: 3.5,
      bed: "melody",
      bedDb: -16,
      format: "mp3",
    },
  ],
  [
    "jingle-continuous",
    {
      voices: [1],
      speed: 170,
      gap: [0.05, 0.14],
      lead: 0.5,
      jingle: 4,
      bed: "noise",
      bedDb: -30,
      format: "mp3",
    },
  ],
];

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function readWav16(file) {
  const buf = readFileSync(file);
  let at = 12;
  while (at + 8 <= buf.length) {
    const id = buf.toString("ascii", at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (id === "data") {
      const n = Math.floor(Math.min(size, buf.length - at - 8) / 2);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = buf.readInt16LE(at + 8 + 2 * i) / 32768;
      return out;
    }
    at += 8 + size + (size & 1);
  }
  throw new Error(`${file}: no data chunk`);
}

function writeWav16(file, samples) {
  const buf = Buffer.alloc(44 + samples.length * 2);
  buf.write("RIFF", 0, "ascii");
  buf.writeUInt32LE(36 + samples.length * 2, 4);
  buf.write("WAVEfmt ", 8, "ascii");
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(RATE, 24);
  buf.writeUInt32LE(RATE * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36, "ascii");
  buf.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) {
    buf.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), 44 + 2 * i);
  }
  writeFileSync(file, buf);
}

/** One line in one voice and speed, trimmed of leading and trailing silence (cached). */
function synthLine(cacheDir, voice, speed, text, effects = []) {
  const key = createHash("sha1")
    .update(`${voice}|${speed}|${text}${effects.length ? `|${effects.join(" ")}` : ""}`)
    .digest("hex")
    .slice(0, 16);
  const out = path.join(cacheDir, `${key}.wav`);
  if (!existsSync(out)) {
    const raw = path.join(cacheDir, `${key}.raw.wav`);
    execFileSync("espeak-ng", ["-v", voice, "-s", String(speed), "-w", raw, text]);
    // trim below -50 dBFS at both ends, as a recording engineer's edit would
    execFileSync("sox", [
      "-V1",
      raw,
      "-r",
      String(RATE),
      "-c",
      "1",
      "-b",
      "16",
      out,
      "silence",
      "1",
      "0.005",
      "-50d",
      "reverse",
      "silence",
      "1",
      "0.005",
      "-50d",
      "reverse",
      // held-out effects (sox tempo keeps the pitch, pitch keeps the tempo), on the line alone so
      // that the truth stays the offsets of the concatenation
      ...effects,
    ]);
  }
  return readWav16(out);
}

const midi = (n) => 440 * 2 ** ((n - 69) / 12);

/** A tone with a few harmonics and a soft attack/release, added into buf. */
function addNote(buf, from, seconds, freq, amp) {
  const n = Math.min(buf.length - from, Math.floor(seconds * RATE));
  const attack = Math.min(n / 4, 0.02 * RATE);
  const release = Math.min(n / 3, 0.08 * RATE);
  for (let i = 0; i < n; i++) {
    const env = Math.min(1, i / attack, (n - i) / release);
    const t = i / RATE;
    const v =
      Math.sin(2 * Math.PI * freq * t) +
      0.4 * Math.sin(4 * Math.PI * freq * t) +
      0.15 * Math.sin(6 * Math.PI * freq * t);
    buf[from + i] += amp * env * v;
  }
}

function bed(kind, length, random) {
  const buf = new Float32Array(length);
  if (kind === "brown") {
    // brown noise (integrated white noise, leaky): a rumble, most of its power under 500 Hz
    let v = 0;
    for (let i = 0; i < length; i++) {
      v = 0.995 * v + (random() * 2 - 1) * 0.1;
      buf[i] = v + (random() * 2 - 1) * 0.02;
    }
  } else if (kind === "noise") {
    // pink noise (Voss-McCartney style, 7 rows), normalised below
    const rows = new Float64Array(7);
    for (let i = 0; i < length; i++) {
      const r = Math.floor(random() * 7);
      rows[r] = random() * 2 - 1;
      buf[i] = rows.reduce((a, b) => a + b, 0) / 7 + (random() * 2 - 1) * 0.1;
    }
  } else if (kind === "drums") {
    // a 112 bpm loop: kick (a falling sine) on beats 1 and 3, snare (noise) on 2 and 4, hats between
    const beat = Math.floor((60 / 112) * RATE);
    for (let at = 0, k = 0; at < length; at += beat / 2, k++) {
      const hit = k % 4 === 0 ? "kick" : k % 4 === 2 ? "snare" : "hat";
      const n = Math.floor((hit === "hat" ? 0.03 : 0.12) * RATE);
      for (let i = 0; i < n && at + i < length; i++) {
        const decay = Math.exp((-5 * i) / n);
        const v =
          hit === "kick" ? Math.sin(2 * Math.PI * (60 + 90 * decay) * (i / RATE)) : (random() * 2 - 1) * 0.7;
        buf[at + i] += v * decay * (hit === "hat" ? 0.4 : 1);
      }
    }
  } else if (kind === "chords") {
    const progressions = [
      [48, 52, 55],
      [45, 48, 52],
      [41, 45, 48],
      [43, 47, 50],
    ];
    for (let at = 0, k = 0; at < length; at += Math.floor(2.4 * RATE), k++) {
      for (const note of progressions[k % 4]) addNote(buf, at, 2.5, midi(note + 12), 0.3);
    }
  } else if (kind === "melody") {
    const scale = [60, 62, 64, 67, 69, 72, 74, 76];
    for (let at = 0; at < length; ) {
      const seconds = [0.2, 0.3, 0.4, 0.6][Math.floor(random() * 4)];
      addNote(buf, at, seconds * 1.1, midi(scale[Math.floor(random() * scale.length)]), 0.5);
      if (random() < 0.3) addNote(buf, at, seconds * 2, midi(48 + Math.floor(random() * 5)), 0.3);
      at += Math.floor(seconds * RATE);
    }
  }
  return normalise(buf);
}

function rms(buf) {
  let s = 0;
  for (const v of buf) s += v * v;
  return Math.sqrt(s / Math.max(1, buf.length));
}
function normalise(buf) {
  const r = rms(buf) || 1;
  for (let i = 0; i < buf.length; i++) buf[i] /= r;
  return buf;
}

/** An intro jingle: chords, a melody and a few drum-like noise hits, as loud as the voice. */
function jingle(seconds, random, drums = false) {
  const length = Math.floor(seconds * RATE);
  const chords = bed("chords", length, random);
  const melody = bed("melody", length, random);
  const loop = drums ? bed("drums", length, random) : null;
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = 0.6 * chords[i] + 0.8 * melody[i] + (loop ? 0.9 * loop[i] : 0);
  for (let at = 0; at < length; at += Math.floor(0.5 * RATE)) {
    for (let i = 0; i < 0.06 * RATE && at + i < length; i++)
      out[at + i] += (random() * 2 - 1) * 2 * (1 - i / (0.06 * RATE));
  }
  const fade = Math.floor(0.5 * RATE);
  for (let i = 0; i < fade; i++) out[length - 1 - i] *= i / fade;
  return normalise(out);
}

function assemble({ lines, lang, opts, random, cacheDir }) {
  const voiceNames = opts.voices.map((v) => (typeof v === "string" ? v : voices[lang][v]));
  const pieces = lines.map((text, i) => {
    const voice = voiceNames[i % voiceNames.length];
    const speed = opts.speed + (voiceNames.length > 1 && i % 2 ? 15 : 0);
    return synthLine(cacheDir, voice, speed, text, opts.effects);
  });
  const voiceLevel = rms(Float32Array.from(pieces.flatMap((p) => Array.from(p.subarray(0, 8000)))));
  const gaps = pieces.map(() => opts.gap[0] + random() * (opts.gap[1] - opts.gap[0]));
  const intro = opts.jingle ? jingle(opts.jingle, random, opts.drums) : new Float32Array(0);
  const outro = opts.outro ? jingle(opts.outro, random, opts.drums) : new Float32Array(0);
  const lead = Math.floor(opts.lead * RATE) + intro.length;
  const total =
    lead +
    pieces.reduce((a, p, i) => a + p.length + Math.floor((gaps[i] ?? 0) * RATE), 0) +
    Math.floor(0.8 * RATE) +
    outro.length;
  const out = new Float32Array(total);
  for (let i = 0; i < intro.length; i++) out[i] = intro[i] * voiceLevel;
  const starts = [];
  const ends = [];
  let at = lead;
  pieces.forEach((p, i) => {
    out.set(p, at);
    starts.push(at / RATE);
    ends.push((at + p.length) / RATE);
    at += p.length + Math.floor(gaps[i] * RATE);
  });
  for (let i = 0; i < outro.length; i++) out[total - outro.length + i] += outro[i] * voiceLevel;
  if (opts.bed) {
    const b = bed(opts.bed, total, random);
    const gain = voiceLevel * 10 ** (opts.bedDb / 20);
    for (let i = 0; i < total; i++) out[i] += b[i] * gain;
  }
  // headroom: peak at -1 dBFS
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  if (peak > 0.89) for (let i = 0; i < total; i++) out[i] *= 0.89 / peak;
  return { samples: out, starts, ends };
}

function encode(wav, format, base) {
  if (format === "wav") return wav;
  const file = `${base}.${format}`;
  if (format === "mp3") execFileSync("lame", ["--quiet", "-b", "48", wav, file]);
  else if (format === "mp3-44k") {
    // as lessons are usually published: 44.1 kHz stereo at 128 kbps
    const stereo = `${base}.44k.wav`;
    execFileSync("sox", [wav, "-r", "44100", "-c", "2", stereo]);
    execFileSync("lame", ["--quiet", "-b", "128", stereo, `${base}.mp3`]);
    return `${base}.mp3`;
  } else execFileSync("sox", [wav, "-C", "3", file]);
  return file;
}

export function writeClip(dir, cacheDir, name, lang, lines, opts, seed) {
  const base = path.join(dir, name);
  const meta = `${base}.json`;
  if (existsSync(meta)) return JSON.parse(readFileSync(meta, "utf8"));
  const random = rng(seed);
  const { samples, starts, ends } = assemble({ lines, lang, opts, random, cacheDir });
  const wav = `${base}.wav`;
  writeWav16(wav, samples);
  const audio = encode(wav, opts.format, base);
  writeFileSync(`${base}.txt`, `${lines.join("\n")}\n`);
  const clip = {
    name,
    lang,
    audio,
    text: `${base}.txt`,
    meta,
    duration: samples.length / RATE,
    truth: { starts, ends },
    ...opts,
  };
  writeFileSync(meta, JSON.stringify(clip, null, 2));
  return clip;
}

export function prepare(dir) {
  const root = path.join(dir, `v${VERSION}`);
  const cacheDir = path.join(root, "lines");
  mkdirSync(cacheDir, { recursive: true });
  return { root, cacheDir };
}

export function buildCorpus({ dir, log = () => {}, only }) {
  const { root, cacheDir } = prepare(dir);
  const clips = [];
  let seed = 1;
  for (const lang of ["fr", "en", "es"]) {
    const all = texts[lang];
    clipKinds.forEach(([kind, opts], k) => {
      seed++;
      const name = `${lang}-${kind}`;
      if (only && !only.some((o) => name.includes(o))) return;
      // 14 lines per clip, a different window of the texts each time (so one-word lines move)
      const lines = Array.from({ length: 14 }, (_, i) => all[(k * 4 + i) % all.length]);
      log(`corpus: ${name}`);
      clips.push(writeClip(root, cacheDir, name, lang, lines, opts, seed * 7919));
    });
  }
  return clips;
}

export function buildLongLesson({ dir, log = () => {} }) {
  const { root, cacheDir } = prepare(dir);
  const lines = [];
  // about 10 minutes: the French lines, read by two voices, repeated with different gaps
  for (let i = 0; lines.length < 230; i++) lines.push(texts.fr[i % texts.fr.length]);
  log("corpus: 10-minute lesson");
  return writeClip(
    root,
    cacheDir,
    "fr-long-lesson",
    "fr",
    lines,
    {
      voices: [0, 1],
      speed: 150,
      gap: [0.4, 1.2],
      lead: 1,
      jingle: 4,
      bed: "chords",
      bedDb: -22,
      format: "mp3-44k",
    },
    4242,
  );
}
