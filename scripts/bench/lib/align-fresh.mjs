/**
 * A second held-out set, written after the first had been looked at while tuning (so it had become
 * part of what the aligner was fitted to): other lines again, other voices, and what the two sets
 * before lack: a drum loop under the voice, a jingle with drums before and after the lesson,
 * telephone-band audio, and the fastest continuous reading (sox tempo 1.45, gaps of 10–60 ms).
 * Its figures were measured once the method was settled, and nothing was changed after them.
 *
 *   buildFresh({ dir, log, only }) → clips as buildCorpus's (align-corpus.mjs)
 */
import { prepare, writeClip } from "./align-corpus.mjs";

const freshTexts = {
  fr: [
    "Bonsoir, vous avez une table pour deux personnes ?",
    "Oui.",
    "Nous prendrons le menu du jour, avec une carafe d'eau.",
    "Et comme dessert ?",
    "Une tarte aux pommes, une mousse au chocolat, et deux cafés.",
    "Merci beaucoup.",
    "Mon frère habite à Lyon depuis trois ans, mais il préfère Marseille.",
    "Pourquoi ?",
    "À cause du soleil, de la mer, et surtout des gens.",
    "D'accord.",
  ],
  en: [
    "Good evening, do you have a table for two?",
    "Yes.",
    "We will have the set menu, with a jug of water.",
    "And for dessert?",
    "An apple tart, a chocolate mousse, and two coffees.",
    "Thank you very much.",
    "My brother has lived in Leeds for three years, but he prefers Bristol.",
    "Why?",
    "Because of the music, the harbour, and above all the people.",
    "All right.",
  ],
  es: [
    "Buenas noches, ¿tienen una mesa para dos?",
    "Sí.",
    "Tomaremos el menú del día, con una jarra de agua.",
    "¿Y de postre?",
    "Una tarta de manzana, una mousse de chocolate, y dos cafés.",
    "Muchas gracias.",
    "Mi hermano vive en Sevilla desde hace tres años, pero prefiere Valencia.",
    "¿Por qué?",
    "Por el sol, por el mar, y sobre todo por la gente.",
    "Vale.",
  ],
};

const freshVoices = {
  fr: ["fr+Michel", "fr-be+Steph"],
  en: ["en-gb-x-rp+Ed", "en-029+Linda"],
  es: ["es+Marco", "es-419+Steph2"],
};
const freshKinds = [
  [
    "drums-bed-continuous",
    { v: [0], speed: 160, gap: [0.03, 0.12], lead: 0.5, bed: "drums", bedDb: -14, format: "mp3" },
  ],
  [
    "drum-jingles-dialog",
    { v: [0, 1], speed: 150, gap: [0.1, 0.4], lead: 0.3, jingle: 5, outro: 4, drums: true, format: "ogg" },
  ],
  [
    "phone-slow",
    {
      v: [1],
      speed: 120,
      effects: ["sinc", "300-3400"],
      gap: [0.3, 1],
      lead: 3,
      bed: "noise",
      bedDb: -18,
      format: "wav",
    },
  ],
  [
    "tempo-fastest-continuous",
    { v: [1], speed: 170, effects: ["tempo", "1.45"], gap: [0.01, 0.06], lead: 0.4, format: "mp3" },
  ],
];

export function buildFresh({ dir, log = () => {}, only }) {
  const { root, cacheDir } = prepare(dir);
  const clips = [];
  let seed = 301;
  for (const lang of ["fr", "en", "es"]) {
    for (const [kind, { v, ...opts }] of freshKinds) {
      seed++;
      const name = `fresh-${lang}-${kind}`;
      if (only && !only.some((o) => name.includes(o))) continue;
      log(`corpus: ${name}`);
      const voices = v.map((k) => freshVoices[lang][k]);
      clips.push(
        writeClip(root, cacheDir, name, lang, freshTexts[lang], { ...opts, voices }, seed * 104_729),
      );
    }
  }
  return clips;
}
