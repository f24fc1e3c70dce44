/**
 * A third held-out set, the test split of issue 22's accuracy targets: written before the
 * aligner's signal mode was reworked (continuous reading, jingles), scored once before and once
 * after, never looked at clip by clip in between. Other lines again, other voices, and a mix of
 * what the corpus holds: clear pauses after a long lead of silence, continuous reading over held
 * chords, a two-voice dialog after a jingle in noise, and sped-up continuous reading over a melody
 * after a drum jingle.
 *
 *   buildUnseen({ dir, log, only }) → clips as buildCorpus's (align-corpus.mjs)
 */
import { prepare, writeClip } from "./align-corpus.mjs";

const unseenTexts = {
  fr: [
    "Pardon, à quelle heure part le prochain train pour Nantes ?",
    "Attendez.",
    "Il part à midi vingt, quai numéro quatre, mais il a du retard.",
    "Combien de temps ?",
    "Environ un quart d'heure, d'après le tableau.",
    "Tant pis.",
    "Alors je vais acheter un sandwich, une bouteille d'eau, et un journal.",
    "Bonne idée !",
    "La boutique est juste là, à gauche, après les escaliers.",
    "Merci.",
  ],
  en: [
    "Sorry, what time does the next train to Oxford leave?",
    "Hold on.",
    "It leaves at twenty past twelve, platform four, but it is running late.",
    "How long for?",
    "About a quarter of an hour, according to the board.",
    "Never mind.",
    "Then I will buy a sandwich, a bottle of water, and a newspaper.",
    "Good idea!",
    "The shop is just there, on the left, after the stairs.",
    "Thanks.",
  ],
  es: [
    "Perdón, ¿a qué hora sale el próximo tren para Bilbao?",
    "Espere.",
    "Sale a las doce y veinte, andén cuatro, pero lleva retraso.",
    "¿Cuánto tiempo?",
    "Unos quince minutos, según el panel.",
    "Qué pena.",
    "Entonces voy a comprar un bocadillo, una botella de agua, y un periódico.",
    "¡Buena idea!",
    "La tienda está justo ahí, a la izquierda, después de las escaleras.",
    "Gracias.",
  ],
};

const unseenVoices = {
  fr: ["fr+Gustave", "fr-ch+Hugo"],
  en: ["en-gb-x-gbclan+John", "en-gb-x-gbcwmd+Belinda"],
  es: ["es+Diogo", "es-419+Andrea"],
};
const unseenKinds = [
  ["clear-long-lead", { v: [0], speed: 145, gap: [0.6, 1.5], lead: 4, format: "mp3" }],
  [
    "chords-continuous",
    { v: [1], speed: 180, gap: [0.02, 0.14], lead: 0.7, bed: "chords", bedDb: -16, format: "ogg" },
  ],
  [
    "dialog-jingle-noise",
    {
      v: [0, 1],
      speed: 160,
      gap: [0.15, 0.5],
      lead: 0.5,
      jingle: 4.5,
      bed: "noise",
      bedDb: -16,
      format: "mp3",
    },
  ],
  [
    "tempo-melody-continuous",
    {
      v: [1],
      speed: 150,
      effects: ["tempo", "1.25"],
      gap: [0.03, 0.13],
      lead: 1,
      jingle: 3,
      drums: true,
      bed: "melody",
      bedDb: -14,
      format: "mp3",
    },
  ],
];

export function buildUnseen({ dir, log = () => {}, only }) {
  const { root, cacheDir } = prepare(dir);
  const clips = [];
  let seed = 501;
  for (const lang of ["fr", "en", "es"]) {
    for (const [kind, { v, ...opts }] of unseenKinds) {
      seed++;
      const name = `unseen-${lang}-${kind}`;
      if (only && !only.some((o) => name.includes(o))) continue;
      log(`corpus: ${name}`);
      const voices = v.map((k) => unseenVoices[lang][k]);
      clips.push(
        writeClip(root, cacheDir, name, lang, unseenTexts[lang], { ...opts, voices }, seed * 104_729),
      );
    }
  }
  return clips;
}
