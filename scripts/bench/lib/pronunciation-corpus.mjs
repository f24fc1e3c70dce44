// The pronunciation score's corpus: Debian's espeak-ng reading the same sentences in French,
// English and Spanish with four voices (variant, speed, pitch). Each clip exists twice: as a
// lesson would play it (the clean 22 kHz WAV) and as a learner's microphone would bring it
// (400 ms of room noise before, 300 ms after, pink noise at about -46 dBFS throughout, through
// Opus at 32 kbit/s like MediaRecorder, decoded at 48 kHz). Generated once into a cache that git
// ignores (.cache/pronunciation-corpus), regenerated when this file's sentences or voices change.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./processes.mjs";

export const SENTENCES = {
  fr: [
    "Bonjour, je voudrais un café, s'il vous plaît.",
    "Où se trouve la gare la plus proche ?",
    "Nous partons en vacances demain matin.",
    "Il fait très beau aujourd'hui à Paris.",
    "Pouvez-vous parler plus lentement, s'il vous plaît ?",
    "Ma sœur habite à Lyon depuis trois ans.",
    "Je ne comprends pas cette question.",
    "Le train de huit heures est en retard ce matin, alors nous prendrons le bus jusqu'au centre-ville.",
  ],
  en: [
    "Good morning, could I have a cup of tea?",
    "Where is the nearest train station?",
    "We are going on holiday tomorrow morning.",
    "The weather is lovely in London today.",
    "Could you speak more slowly, please?",
    "My sister has lived in Leeds for three years.",
    "I don't understand this question.",
    "The eight o'clock train is late this morning, so we will take the bus into the town centre.",
  ],
  es: [
    "Buenos días, quisiera un café, por favor.",
    "¿Dónde está la estación de tren más cercana?",
    "Nos vamos de vacaciones mañana por la mañana.",
    "Hoy hace muy buen tiempo en Madrid.",
    "¿Puede hablar más despacio, por favor?",
    "Mi hermana vive en Sevilla desde hace tres años.",
    "No entiendo esta pregunta.",
    "El tren de las ocho llega tarde esta mañana, así que tomaremos el autobús hasta el centro.",
  ],
};

const VOICES = { fr: "fr", en: "en-gb", es: "es" };
/** variant, words per minute, pitch (0–99) */
export const SPEAKERS = [
  { name: "a", variant: "", speed: 150, pitch: 50 },
  { name: "b", variant: "+f3", speed: 125, pitch: 70 },
  { name: "c", variant: "+m3", speed: 185, pitch: 35 },
  { name: "d", variant: "+f5", speed: 165, pitch: 60 },
];

const dir = path.join(root, ".cache/pronunciation-corpus");

/** A 16-bit PCM WAV file's first channel as floats, and its rate. */
export function readWav(file) {
  const bytes = readFileSync(file);
  let at = 12;
  let rate = 0;
  let channels = 1;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString("ascii", at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === "fmt ") {
      channels = bytes.readUInt16LE(at + 10);
      rate = bytes.readUInt32LE(at + 12);
    }
    if (id === "data") {
      const end = Math.min(bytes.length, at + 8 + size);
      const frames = Math.floor((end - at - 8) / (2 * channels));
      const out = new Float32Array(frames);
      for (let i = 0; i < frames; i++) out[i] = bytes.readInt16LE(at + 8 + i * 2 * channels) / 32768;
      return { samples: out, rate };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error(`${file}: no data chunk`);
}

function ffmpeg(args) {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { stdio: "pipe" });
}

/**
 * The corpus, generated if missing: [{ lang, sentence (index), speaker (name), model (file), learner (file) }].
 */
export function corpus(log = () => {}) {
  const stamp = createHash("sha256")
    .update(JSON.stringify({ SENTENCES, SPEAKERS, VOICES, v: 1 }))
    .digest("hex")
    .slice(0, 12);
  const ready = path.join(dir, `ready-${stamp}`);
  const clips = [];
  for (const [lang, sentences] of Object.entries(SENTENCES))
    sentences.forEach((_, sentence) => {
      for (const speaker of SPEAKERS) {
        const base = path.join(dir, `${lang}-${sentence}-${speaker.name}`);
        clips.push({
          lang,
          sentence,
          speaker: speaker.name,
          model: `${base}.wav`,
          learner: `${base}-mic.wav`,
        });
      }
    });
  if (existsSync(ready)) return clips;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`generating the pronunciation corpus (${clips.length} clips, espeak-ng and ffmpeg) into ${dir}`);
  for (const clip of clips) {
    const speaker = SPEAKERS.find((s) => s.name === clip.speaker);
    const text = SENTENCES[clip.lang][clip.sentence];
    execFileSync("espeak-ng", [
      "-v",
      `${VOICES[clip.lang]}${speaker.variant}`,
      "-s",
      String(speaker.speed),
      "-p",
      String(speaker.pitch),
      "-w",
      clip.model,
      text,
    ]);
    const opus = clip.learner.replace(/\.wav$/, ".ogg");
    ffmpeg([
      "-i",
      clip.model,
      "-filter_complex",
      "[0:a]aresample=48000,adelay=400,apad=pad_dur=0.3[s];anoisesrc=color=pink:amplitude=0.005:sample_rate=48000:seed=7[n];[s][n]amix=inputs=2:duration=first:normalize=0",
      "-c:a",
      "libopus",
      "-b:a",
      "32k",
      opus,
    ]);
    ffmpeg(["-i", opus, "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", clip.learner]);
    rmSync(opus);
  }
  writeFileSync(ready, `${new Date().toISOString()}\n`);
  return clips;
}
