import { describe, expect, it } from "vitest";
import {
  chooseClozeBlanks,
  clozeBlanksValid,
  clozeChoices,
  courseVocabulary,
  diffWords,
  gradeCloze,
  gradeDictation,
  gradeResult,
  wordsOf,
} from "./practice-grading";
import { isStopWord } from "./stop-words";

const strict = { ignoreAccents: false };
const loose = { ignoreAccents: true };

describe("dictation grading", () => {
  it("ignores case and punctuation", () => {
    const grade = gradeDictation("Bonjour, je m'appelle Léa !", "bonjour je m appelle léa", strict);
    expect(grade).toMatchObject({ rating: 3, accuracy: 1, correct: true });
  });

  it("counts accents unless the learner's setting ignores them", () => {
    expect(gradeDictation("Il a été là", "il a ete la", strict)).toMatchObject({ correct: false, rating: 1 });
    expect(gradeDictation("Il a été là", "il a ete la", loose)).toMatchObject({ correct: true, rating: 3 });
    expect(gradeDictation("¿Qué año?", "que ano", loose).correct).toBe(true);
    expect(gradeDictation("Un cœur", "un coeur", loose).correct).toBe(true);
  });

  it("shows word by word what was wrong, missing, given in excess or wrong by its accent", () => {
    expect(diffWords("Je voudrais un café noir", "je voudrai un très cafe", strict)).toEqual([
      { op: "ok", expected: "Je", given: "je" },
      { op: "wrong", expected: "voudrais", given: "voudrai" },
      { op: "ok", expected: "un", given: "un" },
      { op: "extra", given: "très" },
      { op: "accent", expected: "café", given: "cafe" },
      { op: "missing", expected: "noir" },
    ]);
  });

  it("grades Hard from 80 % of the words, Again below (a failed dictation), Again for nothing typed", () => {
    const line = "one two three four five six seven eight nine ten";
    expect(gradeDictation(line, "one two three four five six seven eight nine", strict)).toMatchObject({
      rating: 2,
      accuracy: 0.9,
    });
    expect(gradeDictation(line, "one two three", strict)).toMatchObject({ rating: 1, accuracy: 0.3 });
    expect(gradeDictation(line, "", strict)).toMatchObject({ rating: 1, accuracy: 0 });
  });
});

describe("cloze choice", () => {
  const course = [
    "Je voudrais un café.",
    "Le café est chaud et le croissant est frais.",
    "Nous voudrions deux croissants et un café.",
    "La gare est loin d'ici.",
  ];
  const vocabulary = courseVocabulary(course, "fr");

  it("counts the content words of the course, never stop words nor short words", () => {
    expect(vocabulary.get("café")).toBe(3);
    expect(vocabulary.has("est")).toBe(false);
    expect(vocabulary.has("le")).toBe(false);
    expect(vocabulary.has("nous")).toBe(false);
    expect(isStopWord("the", "en") && isStopWord("los", "es") && isStopWord("vous", "fr")).toBe(true);
  });

  it("blanks the word the course uses most, longer first among equals", () => {
    const line = "Je voudrais un café.";
    const words = wordsOf(line);
    expect(chooseClozeBlanks(line, vocabulary, "fr").map((i) => words[i])).toEqual(["café"]);
    expect(
      chooseClozeBlanks("La gare est loin", vocabulary, "fr").map((i) => wordsOf("La gare est loin")[i]),
    ).toEqual(["gare"]);
  });

  it("blanks two words in a long line, none in a line of stop words", () => {
    const line = "Le café est chaud et le croissant est frais.";
    const blanks = chooseClozeBlanks(line, vocabulary, "fr");
    expect(blanks).toHaveLength(2);
    expect(blanks.map((i) => wordsOf(line)[i])).toEqual(["café", "croissant"]);
    expect(chooseClozeBlanks("Il est là, et nous aussi.", vocabulary, "fr")).toEqual([]);
  });

  it("offers the word with distractors of the same course, always in the same order", () => {
    const choices = clozeChoices("café", vocabulary);
    expect(choices).toContain("café");
    expect(choices).toHaveLength(4);
    for (const c of choices) expect(vocabulary.has(c)).toBe(true);
    expect(clozeChoices("café", vocabulary)).toEqual(choices);
    expect(clozeChoices("café", new Map())).toEqual(["café"]);
  });

  it("grades each blank: all right Good, some Hard, none Again", () => {
    const line = "Le café est chaud et le croissant est frais.";
    expect(gradeCloze(line, [1, 6], ["Café", "croissant"], strict)).toMatchObject({
      rating: 3,
      correct: true,
    });
    expect(gradeCloze(line, [1, 6], ["cafe", "croissant"], strict)).toMatchObject({
      rating: 2,
      accuracy: 0.5,
    });
    expect(gradeCloze(line, [1, 6], ["cafe", "croissant"], loose).rating).toBe(3);
    expect(gradeCloze(line, [1, 6], ["thé", ""], strict).rating).toBe(1);
    expect(clozeBlanksValid(line, [1, 6], ["a", "b"])).toBe(true);
    expect(clozeBlanksValid(line, [6, 1], ["a", "b"])).toBe(false);
    expect(clozeBlanksValid(line, [1, 40], ["a", "b"])).toBe(false);
    expect(clozeBlanksValid(line, [1], ["a", "b"])).toBe(false);
  });
});

describe("a result as its grade", () => {
  it("grades a typed recall as a dictation and takes a spoken recall's grade from the learner", () => {
    const base = { result_id: "x", card_id: "y", ignore_accents: false };
    expect(gradeResult("Hola", { ...base, kind: "recall_typed", answer: "hola" }).rating).toBe(3);
    expect(gradeResult("Hola", { ...base, kind: "recall_spoken", rating: 4 })).toMatchObject({ rating: 4 });
  });
});
