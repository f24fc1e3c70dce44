import { describe, expect, it } from "vitest";
import { expectedWeight, splitScript, syllableCount } from "../src/script.js";

describe("splitScript", () => {
  const text = "\uFEFFBonjour !\n\n  Comment ça va ?  \r\nTrès bien. Et toi ? Moi aussi, merci.\n";

  it("keeps one cue per non-empty line in lines mode", () => {
    expect(splitScript(text, "fr", "lines")).toEqual([
      "Bonjour !",
      "Comment ça va ?",
      "Très bien. Et toi ? Moi aussi, merci.",
    ]);
  });

  it("splits every line into sentences in sentences mode", () => {
    expect(splitScript(text, "fr", "sentences")).toEqual([
      "Bonjour !",
      "Comment ça va ?",
      "Très bien.",
      "Et toi ?",
      "Moi aussi, merci.",
    ]);
  });

  it("splits only paragraphs in auto mode", () => {
    expect(splitScript("Hi! How are you?\nI am fine. Thanks. And you?", "en", "auto")).toEqual([
      "Hi! How are you?",
      "I am fine.",
      "Thanks.",
      "And you?",
    ]);
  });

  it("keeps Spanish questions and exclamations whole", () => {
    expect(splitScript("¿Dónde está la estación? ¡Gracias! Adiós.", "es", "sentences")).toEqual([
      "¿Dónde está la estación?",
      "¡Gracias!",
      "Adiós.",
    ]);
  });
});

describe("syllableCount", () => {
  it("counts what a reader says, not letters", () => {
    expect(syllableCount("Oui.", "fr")).toBe(1);
    expect(syllableCount("Je parle.", "fr")).toBe(2);
    expect(syllableCount("l'homme", "fr")).toBe(1);
    // dí-as: an accented í is a syllable of its own; plus a share for each consonant said
    expect(syllableCount("Buenos días", "es")).toBeGreaterThanOrEqual(4);
    expect(syllableCount("Buenos días", "es")).toBeLessThan(5);
  });

  it("weighs English consonant clusters", () => {
    expect(syllableCount("Thanks!", "en")).toBeGreaterThan(syllableCount("Oh!", "en") + 0.5);
  });

  it("orders lines by how long they take to say", () => {
    const short = syllableCount("Merci !", "fr");
    const long = syllableCount("Nous aimerions réserver une table pour deux personnes, ce soir.", "fr");
    expect(long).toBeGreaterThan(4 * short);
  });
});

describe("expectedWeight", () => {
  it("adds to the syllables a share per letter, the pauses of the punctuation and one per line", () => {
    expect(expectedWeight("Oui.", "fr")).toBeCloseTo(1 + 0.3 + 1, 5);
    const plain = expectedWeight("Bonjour je m'appelle Claire", "fr");
    const commas = expectedWeight("Bonjour, je m'appelle Claire", "fr");
    // a comma: half a syllable of slowing (syllableCount) and a pause of a syllable and a half
    expect(commas - plain).toBeCloseTo(2, 5);
  });
});
