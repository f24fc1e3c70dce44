import { type LessonCue, TRANSLATIONS_IMPORT_MAX } from "@parlons/contract";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseInput } from "../../../test/helpers/learning";

let t: TestContext;
let admin: string;
let course: { id: string; title_fr: string };
let other: { id: string };
const lessonIds: string[] = [];

async function newCourse() {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/courses",
    token: admin,
    payload: courseInput({ target_language: "fr" }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.course as { id: string; title_fr: string };
}

async function newLesson(
  courseId: string,
  title: string,
  lines: { text: string; translation_en?: string }[],
) {
  const res = await t.request({
    method: "POST",
    url: `/api/v1/courses/${courseId}/lessons`,
    token: admin,
    payload: { title_fr: title, title_en: title, audio: null, free: true },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.lesson.id as string;
  const cues = lines.map((l, i) => ({ start: i * 2, end: i * 2 + 1.5, ...l }));
  const put = await t.request({
    method: "PUT",
    url: `/api/v1/courses/${courseId}/lessons/${id}/cues`,
    token: admin,
    payload: { cues },
  });
  expect(put.statusCode, put.body).toBe(200);
  return id;
}

const url = (courseId = course.id) => `/api/v1/courses/${courseId}/translations`;
const exportFile = (query: string, courseId = course.id) =>
  t.request({ method: "GET", url: `${url(courseId)}?${query}`, token: admin });
const importFile = (content: string, token = admin, courseId = course.id) =>
  t.request({ method: "POST", url: url(courseId), token, payload: { content } });

async function cuesOf(lessonId: string, courseId = course.id): Promise<LessonCue[]> {
  const res = await t.request({
    method: "GET",
    url: `/api/v1/courses/${courseId}/lessons/${lessonId}/cues`,
    token: admin,
  });
  return res.json().data.cues as LessonCue[];
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  course = await newCourse();
  other = await newCourse();
  lessonIds.push(
    await newLesson(course.id, "Bonjour", [
      { text: "Bonjour !", translation_en: "Hello!" },
      { text: "Je m'appelle Léa, et toi ?", translation_en: "" },
    ]),
    await newLesson(course.id, "Au café", [{ text: 'Un café, "s\'il vous plaît".' }]),
  );
  await newLesson(other.id, "Ailleurs", [{ text: "Autre chose." }]);
}, 60_000);
afterAll(() => t.close());

describe("GET /courses/{courseId}/translations", () => {
  it("exports every line of the course as CSV: id, lesson, start, text and a column per language", async () => {
    const res = await exportFile("format=csv");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename=".+\.csv"/);
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const rows = parse(res.body, { bom: true }) as string[][];
    expect(rows[0]).toEqual(["id", "lesson", "start", "text", "fr", "en", "es"]);
    expect(rows.slice(1).map((r) => [r[2], r[3], r[5]])).toEqual([
      ["0.00", "Bonjour !", "Hello!"],
      ["2.00", "Je m'appelle Léa, et toi ?", ""],
      ["0.00", 'Un café, "s\'il vous plaît".', ""],
    ]);
    expect(rows[1]?.[1]).toBe("1. Bonjour");
  });

  it("exports XLIFF 1.2 and 2.0 with the target language asked for", async () => {
    const v12 = await exportFile("format=xliff12&lang=en");
    expect(v12.statusCode).toBe(200);
    expect(v12.headers["content-type"]).toMatch(/^application\/xliff\+xml/);
    expect(v12.body).toContain('version="1.2"');
    expect(v12.body).toContain('target-language="en"');
    expect(v12.body).toContain("<target>Hello!</target>");
    const v20 = await exportFile("format=xliff20&lang=es");
    expect(v20.body).toContain('version="2.0"');
    expect(v20.body).toContain('trgLang="es"');
    expect(v20.body).toContain("<note>start 0.00 s · 2. Au café</note>");
  });
});

describe("POST /courses/{courseId}/translations", () => {
  it("round-trips a CSV edited in a spreadsheet (semicolons, a column left out)", async () => {
    const rows = parse((await exportFile("format=csv")).body, { bom: true }) as string[][];
    // a French spreadsheet: semicolons; the translator filled Spanish and changed nothing else
    const edited = rows.map((r, i) => (i === 0 ? r : [...r.slice(0, 6), `es ${i}`]));
    const res = await importFile(stringify(edited, { delimiter: ";" }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      format: "csv",
      languages: ["fr", "en", "es"],
      updated: 3,
      unchanged: 0,
    });
    const again = parse((await exportFile("format=csv")).body, { bom: true }) as string[][];
    expect(again).toEqual(edited);
    // the same file again changes nothing
    expect((await importFile(stringify(edited))).json().data).toMatchObject({ updated: 0, unchanged: 3 });
    // only an "en" column: French and Spanish stay
    const id = rows[2]?.[0] as string;
    const onlyEn = await importFile(`id,en\n${id},"My name is Léa, and you?"\n`);
    expect(onlyEn.json().data).toMatchObject({ languages: ["en"], updated: 1 });
    const cue = (await cuesOf(lessonIds[0] as string))[1];
    expect(cue).toMatchObject({ translation_en: "My name is Léa, and you?", translation_fr: "" });
  });

  it("round-trips XLIFF 1.2 and 2.0 edited in a translation tool", async () => {
    for (const [format, word] of [
      ["xliff12", "Hola"],
      ["xliff20", "¡Hola!"],
    ] as const) {
      const file = (await exportFile(`format=${format}&lang=es`)).body;
      const edited = file.replace("<target>es 1</target>", `<target>${word}</target>`);
      const res = await importFile(edited);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ format, languages: ["es"], updated: 1, unchanged: 2 });
      const back = (await exportFile(`format=${format}&lang=es`)).body;
      expect(back).toContain(`<target>${word}</target>`);
      await importFile(back.replace(`<target>${word}</target>`, "<target>es 1</target>"));
    }
  });

  it("applies nothing when a row is wrong, and names every wrong row", async () => {
    const rows = parse((await exportFile("format=csv")).body, { bom: true }) as string[][];
    const foreign = parse((await exportFile("format=csv", other.id)).body, { bom: true }) as string[][];
    const good = rows[1] as string[];
    const csv = stringify([
      ["id", "en"],
      [good[0], "Changed?"],
      ["0190a0a0-0000-7000-8000-00000000dead", "x"],
      [foreign[1]?.[0], "not this course's"],
      [good[0], "twice"],
      ["", "no id"],
      [rows[2]?.[0], "x".repeat(2001)],
    ]);
    const res = await importFile(csv);
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.code).toBe("TRANSLATIONS_INVALID");
    expect(Object.keys(body.errors)).toEqual(["row 3", "row 4", "row 5", "row 6", "row 7"]);
    expect(body.errors["row 3"][0]).toMatch(/Unknown line id/);
    expect(body.errors["row 5"][0]).toMatch(/already in row 2/);
    const cues = await cuesOf(lessonIds[0] as string);
    expect(cues[0]?.translation_en).toBe("Hello!");
  });

  it("refuses what is not a translations file", async () => {
    const cases = [
      "name,en\nx,y\n",
      "id,lesson\nx,y\n",
      '"unclosed,en\n',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><xliff version="1.2"></xliff>',
      '<xliff version="2.0" srcLang="fr" trgLang="de"><file id="f"></file></xliff>',
      "<xliff version='1.2'><file",
    ];
    for (const content of cases) {
      const res = await importFile(content);
      expect(res.statusCode, content).toBe(422);
      expect(res.json().code, content).toBe("TRANSLATIONS_UNREADABLE");
    }
  });

  it("is for staff who manage lessons, on a course that exists", async () => {
    const learner = await t.createUser();
    expect((await importFile("id,en\n", learner.token)).statusCode).toBe(403);
    expect(
      (await t.request({ method: "GET", url: `${url()}?format=csv`, token: learner.token })).statusCode,
    ).toBe(403);
    const missing = "0190a0a0-0000-7000-8000-00000000dead";
    expect((await importFile("id,en\n", admin, missing)).statusCode).toBe(404);
    expect((await exportFile("format=csv", missing)).statusCode).toBe(404);
    expect((await importFile("x".repeat(TRANSLATIONS_IMPORT_MAX + 1))).statusCode).toBe(422);
  });

  it("records an import that changed lines in the audit log: the course by its title, lines changed per language", async () => {
    const audit = async () => {
      const res = await t.request({
        method: "GET",
        url: "/api/v1/audit",
        query: { action: "courses.translations", target_id: course.id },
        token: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.entries as { target_label: string; target_type: string; after: unknown }[];
    };
    const before = (await audit()).length;
    const rows = parse((await exportFile("format=csv")).body, { bom: true }) as string[][];
    const [first, second] = [rows[1]?.[0] as string, rows[2]?.[0] as string];
    const res = await importFile(`id,fr,en\n${first},Salut !,Hi!\n${second},,Who are you?\n`);
    expect(res.statusCode, res.body).toBe(200);
    const entries = await audit();
    expect(entries).toHaveLength(before + 1);
    expect(entries[0]).toMatchObject({
      target_type: "course",
      target_label: course.title_fr,
      after: { format: "csv", languages: ["fr", "en"], rows: 2, lines: 2, changed: { fr: 1, en: 2, es: 0 } },
    });
    // the same file again changes no line and writes no entry
    expect((await importFile(`id,fr,en\n${first},Salut !,Hi!\n${second},,Who are you?\n`)).statusCode).toBe(
      200,
    );
    expect(await audit()).toHaveLength(before + 1);
  });
});
