/**
 * The held-out part of the alignment corpus: clips never used while tuning the aligner, so that
 * its figures say how it does on what it was not fitted to. Other lines (lessons' own mix: several
 * commas in a line, one-word lines next to long ones, questions, numbers), other voices (espeak-ng
 * dialects and named variants), speed changed by sox's tempo after synthesis, pitch shifted,
 * louder beds, a longer jingle and leading silence, and continuous reading in most clips.
 *
 *   buildHeldOut({ dir, log, only }) → clips as buildCorpus's (align-corpus.mjs)
 */
import { prepare, writeClip } from "./align-corpus.mjs";

/**
 * Held-out lines: never used while tuning the aligner, read by voices, speeds and effects that
 * the corpus above does not have (buildHeldOut in align-corpus.mjs). Lessons' own mix: several
 * commas in a line, one-word lines next to long ones, questions, numbers.
 */
const heldOutTexts = {
  fr: [
    "Excusez-moi, je cherche la bibliothèque municipale.",
    "Non.",
    "Elle se trouve derrière la mairie, à côté du parc, en face de la poste.",
    "C'est loin d'ici ?",
    "À pied, il faut compter dix minutes, peut-être un peu plus.",
    "Parfait.",
    "Le week-end dernier, nous sommes allés à la mer avec des amis.",
    "Il a fait chaud ?",
    "Oui, très chaud, alors nous avons nagé, lu, et dormi sur la plage.",
    "Super !",
    "Je voudrais un café crème et deux croissants, s'il vous plaît.",
    "Ça fait six euros cinquante.",
    "Tenez.",
    "Demain matin, à neuf heures, j'ai un rendez-vous chez le médecin.",
  ],
  en: [
    "Excuse me, I am looking for the public library.",
    "No.",
    "It is behind the town hall, next to the park, opposite the post office.",
    "Is it far from here?",
    "On foot, it takes about ten minutes, maybe a little more.",
    "Perfect.",
    "Last weekend, we went to the seaside with some friends.",
    "Was it hot?",
    "Yes, very hot, so we swam, read, and slept on the beach.",
    "Great!",
    "I would like a white coffee and two croissants, please.",
    "That comes to six pounds fifty.",
    "Here you are.",
    "Tomorrow morning, at nine o'clock, I have an appointment with the doctor.",
  ],
  es: [
    "Perdone, estoy buscando la biblioteca municipal.",
    "No.",
    "Está detrás del ayuntamiento, al lado del parque, enfrente de correos.",
    "¿Está lejos de aquí?",
    "A pie, se tarda unos diez minutos, quizá un poco más.",
    "Perfecto.",
    "El fin de semana pasado, fuimos a la playa con unos amigos.",
    "¿Hacía calor?",
    "Sí, mucho calor, así que nadamos, leímos, y dormimos en la arena.",
    "¡Genial!",
    "Quisiera un café con leche y dos cruasanes, por favor.",
    "Son seis euros con cincuenta.",
    "Tome.",
    "Mañana por la mañana, a las nueve, tengo cita con el médico.",
  ],
};

const heldOutVoices = {
  fr: ["fr-ch+Annie", "fr-be+m5"],
  en: ["en-gb-scotland+Andy", "en-us-nyc+f4"],
  es: ["es+Pablo", "es-419+Alicia"],
};
const heldOutKinds = [
  [
    "tempo-fast-continuous",
    { v: [0], speed: 165, effects: ["tempo", "1.3"], gap: [0.02, 0.12], lead: 0.2, format: "mp3" },
  ],
  [
    "slow-pitch-brown",
    {
      v: [1],
      speed: 115,
      effects: ["pitch", "-300"],
      gap: [0.1, 0.5],
      lead: 2.5,
      bed: "brown",
      bedDb: -10,
      format: "ogg",
    },
  ],
  [
    "jingle-melody-continuous",
    { v: [0], speed: 170, gap: [0.04, 0.15], lead: 0.6, jingle: 6, bed: "melody", bedDb: -12, format: "mp3" },
  ],
  [
    "dialog-tempo-noise",
    {
      v: [0, 1],
      speed: 150,
      effects: ["tempo", "0.85"],
      gap: [0.05, 0.3],
      lead: 1.2,
      bed: "noise",
      bedDb: -15,
      format: "wav",
    },
  ],
];

export function buildHeldOut({ dir, log = () => {}, only }) {
  const { root, cacheDir } = prepare(dir);
  const clips = [];
  let seed = 101;
  for (const lang of ["fr", "en", "es"]) {
    for (const [kind, { v, ...opts }] of heldOutKinds) {
      seed++;
      const name = `heldout-${lang}-${kind}`;
      if (only && !only.some((o) => name.includes(o))) continue;
      log(`corpus: ${name}`);
      const voices = v.map((k) => heldOutVoices[lang][k]);
      clips.push(
        writeClip(root, cacheDir, name, lang, heldOutTexts[lang], { ...opts, voices }, seed * 104_729),
      );
    }
  }
  return clips;
}
