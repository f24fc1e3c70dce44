import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons } from "../../../test/helpers/learning";
import { type CueRow, planCues } from "./cues";

let t: TestContext;
let admin: string;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
let base: string;
let learner: { id: string; token: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  base = `/api/v1/courses/${fx.course.id}/lessons`;
  learner = await t.createUser();
});
afterAll(() => t.close());

interface Cue {
  id: string;
  start: number;
  end: number;
  text: string;
  translation_fr: string;
  translation_en: string;
}
const cuesOf = async (lessonId: string, token = admin) => {
  const res = await t.request({ method: "GET", url: `${base}/${lessonId}/cues`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.cues as Cue[];
};
const put = (lessonId: string, cues: unknown[], token = admin) =>
  t.request({ method: "PUT", url: `${base}/${lessonId}/cues`, token, payload: { cues } });
const lessonAs = async (lessonId: string, token?: string) => {
  const res = await t.request({ method: "GET", url: base, token });
  return (res.json().data.lessons as { id: string; transcript: string | null; cues: Cue[] }[]).find(
    (l) => l.id === lessonId,
  );
};

describe("lesson lines (cues)", () => {
  it("a `[mm:ss]` transcript written with the lesson becomes its lines, ending where the next starts", async () => {
    const cues = await cuesOf(fx.free.id);
    expect(cues).toMatchObject([
      { start: 0, end: 2.5, text: "Hola.", translation_fr: "", translation_en: "" },
      { start: 2.5, end: 10, text: "Buenos días." },
    ]);
    // clients that read the transcript still get the `[mm:ss]` format, parsed back to the same lines
    const lesson = await lessonAs(fx.free.id, learner.token);
    expect(lesson?.transcript).toBe("[00:00] Hola.\n[00:02.5] Buenos días.");
  });

  it("staff replace the lines with translations; learners receive them; ids of kept lines stay", async () => {
    const [hola, buenos] = await cuesOf(fx.free.id);
    const res = await put(fx.free.id, [
      {
        id: hola?.id,
        start: 0,
        end: 1.2,
        text: "Hola.",
        translation_fr: "Bonjour.",
        translation_en: "Hello.",
      },
      { start: 1.2, end: 2.5, text: "¿Qué tal?", translation_fr: "Ça va ?", translation_en: "How are you?" },
      { id: buenos?.id, start: 2.5, end: 9, text: "Buenos días.", translation_fr: "Bonjour (le matin)." },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().data.cues as Cue[];
    expect(saved.map((c) => c.text)).toEqual(["Hola.", "¿Qué tal?", "Buenos días."]);
    expect(saved[0]?.id).toBe(hola?.id);
    expect(saved[2]?.id).toBe(buenos?.id);
    expect(saved[2]).toMatchObject({ end: 9, translation_fr: "Bonjour (le matin).", translation_en: "" });
    const seen = await lessonAs(fx.free.id, learner.token);
    expect(seen?.cues).toEqual(saved);
    expect(seen?.transcript).toBe("[00:00] Hola.\n[00:01.2] ¿Qué tal?\n[00:02.5] Buenos días.");
  });

  it("the transcript sent back unchanged keeps every line; a re-imported transcript keeps translations of unchanged lines", async () => {
    const before = await cuesOf(fx.free.id);
    const lesson = await lessonAs(fx.free.id, admin);
    const same = await t.request({
      method: "PUT",
      url: `${base}/${fx.free.id}`,
      token: admin,
      payload: { transcript: lesson?.transcript },
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(await cuesOf(fx.free.id)).toEqual(before);

    const edited = await t.request({
      method: "PUT",
      url: `${base}/${fx.free.id}`,
      token: admin,
      payload: { transcript: "[00:00] Hola.\n[00:03] Buenas tardes." },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = await cuesOf(fx.free.id);
    expect(after).toMatchObject([
      {
        id: before[0]?.id,
        start: 0,
        end: 3,
        text: "Hola.",
        translation_fr: "Bonjour.",
        translation_en: "Hello.",
      },
      { start: 3, end: 10, text: "Buenas tardes.", translation_fr: "" },
    ]);
  });

  it("a plain transcript (no times) is kept as text and leaves the lesson without lines", async () => {
    const res = await t.request({
      method: "PUT",
      url: `${base}/${fx.paid.id}`,
      token: admin,
      payload: { transcript: "Just text, no times." },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.lesson).toMatchObject({ transcript: "Just text, no times.", cues: [] });
    expect(await cuesOf(fx.paid.id)).toEqual([]);
  });

  it("refuses lines out of order or ending before they start", async () => {
    const bad = [
      [
        { start: 2, end: 3, text: "b" },
        { start: 1, end: 2, text: "a" },
      ],
      [{ start: 2, end: 1, text: "a" }],
    ];
    for (const cues of bad) {
      const res = await put(fx.free.id, cues);
      expect([400, 422], JSON.stringify(cues)).toContain(res.statusCode);
    }
  });

  it("keeps a line without text: a segment of audio without a script, its text to be typed", async () => {
    const res = await put(fx.free.id, [{ start: 0, end: 1, text: "  " }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cues).toMatchObject([{ start: 0, end: 1, text: "" }]);
  });

  it("refuses overlapping lines and lines past the audio's end, saying which (10 s of audio)", async () => {
    const overlap = await put(fx.free.id, [
      { start: 0, end: 3, text: "a" },
      { start: 2, end: 4, text: "b" },
    ]);
    expect([overlap.statusCode, overlap.json().code]).toEqual([422, "LINES_OVERLAP"]);
    expect(overlap.json().errors["cues.1.start"]).toBeTruthy();
    const late = await put(fx.free.id, [{ start: 5, end: 14, text: "a" }]);
    expect([late.statusCode, late.json().code]).toEqual([422, "LINE_PAST_AUDIO_END"]);
    expect(late.json().errors["cues.0.end"]).toBeTruthy();
    // back to back, and up to the end: accepted
    const fine = await put(fx.free.id, [
      { start: 0, end: 5, text: "a" },
      { start: 5, end: 10, text: "b" },
    ]);
    expect(fine.statusCode).toBe(200);
  });

  it("only staff who manage lessons read or write lines; locked lessons send none", async () => {
    expect((await put(fx.free.id, [], learner.token)).statusCode).toBe(403);
    expect(
      (await t.request({ method: "GET", url: `${base}/${fx.free.id}/cues`, token: learner.token }))
        .statusCode,
    ).toBe(403);
    await put(fx.paid.id, [{ start: 0, end: 2, text: "¿Cuánto cuesta?", translation_fr: "Combien ?" }]);
    const locked = await lessonAs(fx.paid.id, learner.token);
    expect(locked?.cues).toEqual([]);
    expect(locked?.transcript).toBeNull();
  });

  it("an empty list removes every line", async () => {
    const res = await put(fx.paid.id, []);
    expect(res.statusCode, res.body).toBe(200);
    expect(await cuesOf(fx.paid.id)).toEqual([]);
  });
});

describe("planCues", () => {
  const row = (id: string, text: string): CueRow => ({
    id,
    lessonId: "l",
    position: 0,
    start: 0,
    end: 1,
    text,
    translationFr: "",
    translationEn: "",
    translationEs: "",
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  it("keeps lines by id, then by unchanged text; the rest are new or removed", () => {
    const plan = planCues(
      [row("a", "one"), row("b", "two"), row("c", "three")],
      [
        { id: "b", start: 0, end: 1, text: "two, edited" },
        { start: 1, end: 2, text: "three" },
        { start: 2, end: 3, text: "four" },
      ],
    );
    expect([...plan.keep]).toEqual([
      ["b", 0],
      ["c", 1],
    ]);
    expect(plan.insert).toEqual([2]);
    expect(plan.remove).toEqual(["a"]);
  });
});
