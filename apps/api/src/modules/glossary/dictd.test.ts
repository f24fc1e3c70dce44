import { existsSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { dictzip, writeDictd } from "../../../test/helpers/dictd-fixture";
import { dictdDictionary, dictdNumber, dictdShelf } from "./dictd";

const ARTICLES = {
  café: "/kaˈfe/ <n, masc>\n1. coffee\n2. café",
  "abat-jour": "<n, masc>\nlamp-shade",
  leche: "<n, fem>\nmilk",
  // long enough to span several 64-byte chunks of the dictzip file
  estación: `<n, fem>\n1. station\n2. season\n${"3. a long meaning that runs over more than one chunk ".repeat(4)}`,
};

describe("dictd dictionaries read from their files", () => {
  it("reads dictd's base 64 numbers", () => {
    expect([dictdNumber("A"), dictdNumber("B"), dictdNumber("BA"), dictdNumber("ZaE")]).toEqual([
      0,
      1,
      64,
      25 * 64 * 64 + 26 * 64 + 4,
    ]);
  });

  it("the fixture is a real dictzip file: gzip that gunzip reads whole", () => {
    const data = Buffer.from("x".repeat(300) + "é".repeat(50));
    expect(gunzipSync(dictzip(data, 64)).equals(data)).toBe(true);
  });

  for (const compressed of [true, false]) {
    it(`looks a word up in ${compressed ? "a .dict.dz" : "a plain .dict"}: by its lower-case form, punctuation as dictd drops it`, async () => {
      const { dir } = writeDictd("freedict-spa-eng", ARTICLES, { compressed });
      const dictionary = dictdDictionary(dir, "freedict-spa-eng");
      expect(dictionary?.name).toBe("freedict-spa-eng");
      const [cafe] = (await dictionary?.lookup("Café")) ?? [];
      expect(cafe).toEqual({ head: "café /kaˈfe/ <n, masc>", meanings: "1. coffee\n2. café" });
      expect((await dictionary?.lookup("abatjour"))?.[0]?.meanings).toBe("lamp-shade");
      const [station] = (await dictionary?.lookup("estación")) ?? [];
      expect(station?.meanings).toContain("2. season");
      expect(station?.meanings.endsWith("chunk")).toBe(true);
      expect(await dictionary?.lookup("tren")).toEqual([]);
    });
  }

  it("is optional: a missing dictionary, an unknown language, or no directory at all is none", () => {
    const { dir } = writeDictd("freedict-spa-eng", ARTICLES);
    expect(dictdDictionary(dir, "freedict-spa-fra")).toBeNull();
    const shelf = dictdShelf(dir);
    expect(shelf.between("es", "en")?.name).toBe("freedict-spa-eng");
    expect(shelf.between("es", "fr")).toBeNull();
    expect(shelf.between("xx", "en")).toBeNull();
    expect(dictdShelf(undefined).between("es", "en")).toBeNull();
  });

  // Debian's dict-freedict-fra-eng, where this machine has it (apt-get install dict-freedict-fra-eng)
  const installed = "/usr/share/dictd";
  it.skipIf(!existsSync(`${installed}/freedict-fra-eng.index`))(
    "reads Debian's freedict French-English dictionary",
    async () => {
      const dictionary = dictdShelf(installed).between("fr", "en");
      const [bonjour] = (await dictionary?.lookup("Bonjour")) ?? [];
      expect(bonjour?.head).toContain("bonjour");
      expect(bonjour?.meanings).toContain("good morning");
      expect((await dictionary?.lookup("abat-jour"))?.[0]?.meanings).toContain("lamp");
    },
  );
});
