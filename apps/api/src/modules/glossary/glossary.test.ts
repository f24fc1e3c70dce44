import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { writeDictd } from "../../../test/helpers/dictd-fixture";
import { courseWithLessons, makePremium } from "../../../test/helpers/learning";
import { LOOKUPS_PER_MINUTE } from "./word-routes";

let t: TestContext;
let admin: string;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
let glossary: string;
let cues: { id: string; text: string }[];
let paidCue: { id: string };

const LINES = [
  { text: "Hola.", translation_fr: "Bonjour.", translation_en: "Hello." },
  {
    text: "Quisiera un café con leche.",
    translation_fr: "Je voudrais un café au lait.",
    translation_en: "I would like a coffee with milk.",
  },
  {
    text: "El café está caliente.",
    translation_fr: "Le café est chaud.",
    translation_en: "The coffee is hot.",
  },
  {
    text: "¿Dónde está la estación?",
    translation_fr: "Où est la gare ?",
    translation_en: "Where is the station?",
  },
];

beforeAll(async () => {
  // a dictionary from Spanish to English, written for the test in dictd's format
  const { dir } = writeDictd("freedict-spa-eng", {
    leche: "/ˈletʃe/ <n, fem>\nmilk",
    estación: "<n, fem>\n1. station\n2. season",
  });
  t = await buildTestApp({ env: { DICTIONARY_DIR: dir } });
  admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  glossary = `/api/v1/courses/${fx.course.id}/glossary`;
  const put = async (lessonId: string, lines: typeof LINES) => {
    const res = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${fx.course.id}/lessons/${lessonId}/cues`,
      token: admin,
      payload: { cues: lines.map((l, i) => ({ start: i * 2, end: i * 2 + 2, ...l })) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.cues as { id: string; text: string }[];
  };
  cues = await put(fx.free.id, LINES);
  const paid = await put(fx.paid.id, [
    { text: "¿Cuánto cuesta el café?", translation_fr: "", translation_en: "" },
  ]);
  paidCue = paid[0] as { id: string };
});
afterAll(() => t.close());

const entry = (over: Record<string, string> = {}) => ({
  term: "café",
  meaning_fr: "café",
  meaning_en: "coffee",
  ...over,
});
const create = (payload: object, token = admin) =>
  t.request({ method: "POST", url: glossary, token, payload });
const lookup = (token: string, word: string, lessonId = fx.free.id) =>
  t.request({
    method: "GET",
    url: `/api/v1/lessons/${lessonId}/words/lookup?word=${encodeURIComponent(word)}`,
    token,
  });
const addWord = (token: string, word: string, cueId: string, lessonId = fx.free.id) =>
  t.request({
    method: "POST",
    url: `/api/v1/lessons/${lessonId}/words`,
    token,
    payload: { word, cue_id: cueId },
  });
const cueSaying = (text: string) => cues.find((c) => c.text.includes(text)) as { id: string };

describe("a course's glossary (staff)", () => {
  it("is written by staff who manage lessons only", async () => {
    const learner = await t.createUser();
    expect((await create(entry(), learner.token)).statusCode).toBe(403);
    expect((await t.request({ method: "GET", url: glossary })).statusCode).toBe(401);
  });

  it("adds, finds, changes and removes entries; a term is there once, whatever its case", async () => {
    const made = await create(entry({ term: "Caliente", meaning_fr: "chaud", meaning_en: "hot" }));
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json().data.entry;
    expect((await create(entry({ term: "caliente" }))).statusCode).toBe(409);
    const noMeaning = await create({ term: "pan", meaning_fr: "", meaning_en: "" });
    expect([noMeaning.statusCode, Object.keys(noMeaning.json().errors ?? {})]).toEqual([422, ["meaning_fr"]]);
    const found = await t.request({ method: "GET", url: `${glossary}?q=chau`, token: admin });
    expect(found.json().data.entries.map((e: { term: string }) => e.term)).toEqual(["Caliente"]);
    const changed = await t.request({
      method: "PUT",
      url: `${glossary}/${id}`,
      token: admin,
      payload: entry({ term: "caliente", meaning_fr: "chaud, brûlant", meaning_en: "hot" }),
    });
    expect(changed.json().data.entry).toMatchObject({ term: "caliente", meaning_fr: "chaud, brûlant" });
    const otherCourse = `/api/v1/courses/${randomUUID()}/glossary/${id}`;
    expect((await t.request({ method: "DELETE", url: otherCourse, token: admin })).statusCode).toBe(404);
    expect((await t.request({ method: "DELETE", url: `${glossary}/${id}`, token: admin })).statusCode).toBe(
      200,
    );
    expect(
      (await t.request({ method: "GET", url: glossary, token: admin })).json().data.pagination.total,
    ).toBe(0);
  });

  it("imports a CSV: good lines created or updated, each bad line reported with its number and why", async () => {
    await create(entry({ term: "leche", meaning_fr: "lait", meaning_en: "" }));
    const csv = [
      "term,meaning_fr,meaning_en,note",
      'café,café,coffee,"masculine, like ""el café"""',
      "leche,lait,milk,",
      ",sans terme,,",
      "caliente,,,",
      "a,b,c,d,e",
      "CAFÉ,encore,again,",
      '"estación,gare,station,',
      "",
      "pan,pain,bread",
    ].join("\r\n");
    const res = await t.request({
      method: "POST",
      url: `${glossary}/import`,
      token: admin,
      payload: { csv },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.created).toBe(2); // café, pan
    expect(data.updated).toBe(1);
    expect(data.errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([
      [4, "TERM_MISSING"],
      [5, "MEANING_MISSING"],
      [6, "TOO_MANY_COLUMNS"],
      [7, "DUPLICATE_TERM"],
      [8, "UNCLOSED_QUOTE"],
    ]);
    const list = (await t.request({ method: "GET", url: glossary, token: admin })).json().data.entries;
    expect(list.map((e: { term: string; meaning_en: string }) => [e.term, e.meaning_en])).toEqual([
      ["café", "coffee"],
      ["leche", "milk"],
      ["pan", "bread"],
    ]);
    expect(list.find((e: { term: string }) => e.term === "café").note).toBe('masculine, like "el café"');
    // a spreadsheet saved in French separates with semicolons
    const semicolons = await t.request({
      method: "POST",
      url: `${glossary}/import`,
      token: admin,
      payload: { csv: "pan;pain;bread, loaf;\nagua;eau;water" },
    });
    expect(semicolons.json().data).toEqual({ created: 1, updated: 1, errors: [] });
    await t.request({ method: "DELETE", url: `${glossary}/${list[2].id}`, token: admin });
  });

  it("suggests the lines' words not in the glossary yet, with a meaning from the dictionary or the translations", async () => {
    const res = await t.request({ method: "GET", url: `${glossary}/suggestions`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const suggestions = res.json().data.suggestions as {
      term: string;
      source: string;
      meaning_en: string;
      meaning_fr: string;
    }[];
    const terms = suggestions.map((s) => s.term);
    // café and leche are in the glossary; "con", "está", "la" are stop words
    expect(terms).not.toContain("café");
    expect(terms).not.toContain("leche");
    expect(terms).not.toContain("está");
    expect(suggestions.find((s) => s.term === "estación")).toMatchObject({
      source: "dictionary",
      meaning_en: "1. station\n2. season",
    });
    // a line that says the word alone gives its meaning
    expect(suggestions.find((s) => s.term === "hola")).toMatchObject({
      source: "line",
      meaning_fr: "Bonjour.",
      meaning_en: "Hello.",
    });
    expect(suggestions.find((s) => s.term === "quisiera")).toMatchObject({
      source: "none",
      example: { text: LINES[1]?.text },
    });
  });
});

describe("a tapped word", () => {
  it("is looked up by a learner the lesson opens for: the glossary first, then the dictionary, each named", async () => {
    const learner = await t.createUser();
    const res = await lookup(learner.token, "Leche");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      word: "leche",
      language: "es",
      status: "new",
      meanings: [
        { source: "glossary", dictionary: null, meaning_fr: "lait", meaning_en: "milk", note: "" },
        {
          source: "dictionary",
          dictionary: "freedict-spa-eng",
          meaning_fr: "",
          meaning_en: "milk",
          note: "leche /ˈletʃe/ <n, fem>",
        },
      ],
    });
    const none = (await lookup(learner.token, "quisiera")).json().data;
    expect(none.meanings).toEqual([]);
  });

  it("is refused in a lesson the learner may not open, or when the lesson does not say it", async () => {
    const learner = await t.createUser();
    const paid = await lookup(learner.token, "café", fx.paid.id);
    expect([paid.statusCode, paid.json().code]).toEqual([403, "PREMIUM_REQUIRED"]);
    expect((await addWord(learner.token, "café", paidCue.id, fx.paid.id)).statusCode).toBe(403);
    expect((await lookup(learner.token, "tren")).statusCode).toBe(404);
    expect((await lookup(learner.token, "café", randomUUID())).statusCode).toBe(404);
    expect(
      (await t.request({ method: "GET", url: `/api/v1/lessons/${fx.free.id}/words/lookup?word=café` }))
        .statusCode,
    ).toBe(401);
    await makePremium(t, learner.id);
    expect((await lookup(learner.token, "café", fx.paid.id)).statusCode).toBe(200);
  });

  it("is held to a minute's budget per learner: 429 RATE_LIMITED past it, other learners unaffected", async () => {
    const reader = await t.createUser();
    const other = await t.createUser();
    for (let i = 0; i < LOOKUPS_PER_MINUTE; i += 1) {
      const res = await lookup(reader.token, "leche");
      expect(res.statusCode, `lookup ${i + 1}`).toBe(200);
    }
    const refused = await lookup(reader.token, "leche");
    expect([refused.statusCode, refused.json().code]).toEqual([429, "RATE_LIMITED"]);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await lookup(other.token, "leche")).statusCode).toBe(200);
  });
});

describe("the learner's words", () => {
  it("'add to my words' makes a word card reviewed in the review session, coloured and counted per language", async () => {
    const learner = await t.createUser();
    const added = await addWord(learner.token, "Café", cueSaying("caliente").id);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data).toMatchObject({
      word: "café",
      status: "learning",
      added: true,
      card: { state: "new" },
    });
    // the same word again (from another line) is the same card
    const again = await addWord(learner.token, "café", cueSaying("leche").id);
    expect(again.json().data).toMatchObject({ added: false, card: { id: added.json().data.card.id } });
    // a word the line does not say is refused
    expect((await addWord(learner.token, "leche", cueSaying("caliente").id)).statusCode).toBe(404);

    const due = (await t.request({ method: "GET", url: "/api/v1/review/due", token: learner.token })).json()
      .data;
    expect(due.items).toHaveLength(1);
    expect(due.items[0]).toMatchObject({
      card: { id: added.json().data.card.id },
      cue: { text: "El café está caliente." },
      word: { word: "café", meaning_fr: "café", meaning_en: "coffee" },
    });
    const words = async () =>
      (await t.request({ method: "GET", url: "/api/v1/words?language=es", token: learner.token })).json().data
        .words;
    expect(await words()).toEqual([{ word: "café", status: "learning" }]);

    // graded Easy, a new card goes to review: the word is known
    const graded = await t.request({
      method: "POST",
      url: "/api/v1/review/grade",
      token: learner.token,
      payload: { review_id: randomUUID(), card_id: added.json().data.card.id, rating: 4 },
    });
    expect(graded.json().data.card.state).toBe("review");
    expect(await words()).toEqual([{ word: "café", status: "known" }]);
    expect((await lookup(learner.token, "café")).json().data.status).toBe("known");
    await addWord(learner.token, "leche", cueSaying("leche").id);
    const counts = await t.request({ method: "GET", url: "/api/v1/words/counts", token: learner.token });
    expect(counts.json().data).toEqual({ languages: [{ language: "es", known: 1, learning: 1 }] });
    // the line of a word card stays out of the deck: the word card is its own
    const lineCard = await t.request({
      method: "POST",
      url: "/api/v1/review/cards",
      token: learner.token,
      payload: { cue_id: cueSaying("caliente").id },
    });
    expect(lineCard.json().data.added).toBe(true);
    // another learner sees none of these
    const other = await t.createUser();
    const theirs = await t.request({ method: "GET", url: "/api/v1/words/counts", token: other.token });
    expect(theirs.json().data.languages).toEqual([]);
  });
});
