import { readFileSync } from "node:fs";
import path from "node:path";
import type { CourseImportItem, LessonCue } from "@parlons/contract";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseInput, multipart, toneMp3 } from "../../../test/helpers/learning";

const clips = path.resolve(import.meta.dirname, "../../../../../packages/aligner/test/fixtures");
const speech = readFileSync(path.join(clips, "fr-pauses.mp3"));
const script = readFileSync(path.join(clips, "fr-pauses.txt"), "utf8");
const vtt = "WEBVTT\n\n00:00.500 --> 00:02.000\nUn café\n\n00:02.500 --> 00:04.000\nS'il vous plaît\n";
const srt = "1\n00:00:00,500 --> 00:00:02,000\nMerci\n\n2\n00:00:02,500 --> 00:00:04,000\nAu revoir\n";

let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { ALIGN_SYNTHESIS: "off" } });
  admin = await t.adminToken();
}, 180_000);
afterAll(async () => {
  await t.app.deps.services.alignment.settled();
  await t.close();
});

async function newCourse() {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/courses",
    token: admin,
    payload: courseInput({ target_language: "fr" }),
  });
  return res.json().data.course.id as string;
}

const drop = (courseId: string, files: Record<string, Uint8Array | string>, token = admin) =>
  t.request({
    method: "POST",
    url: `/api/v1/courses/${courseId}/imports`,
    token,
    ...multipart(
      Object.entries(files).map(([filename, value]) => ({
        name: "file",
        filename,
        value: typeof value === "string" ? value : Buffer.from(value),
      })),
    ),
  });

async function lessonsOf(courseId: string) {
  const res = await t.request({ method: "GET", url: `/api/v1/courses/${courseId}/lessons`, token: admin });
  return res.json().data.lessons as { id: string; title_fr: string; title_en: string; position: number }[];
}

const itemsOf = (res: { json(): unknown }) =>
  (res.json() as { data: { items: CourseImportItem[] } }).data.items;

describe("POST /courses/{courseId}/imports", { timeout: 120_000 }, () => {
  it("makes a zip of three lessons (text, VTT, SRT) with course.json into lessons in name order", async () => {
    const courseId = await newCourse();
    const zip = zipSync({
      "course/03-merci.mp3": toneMp3(),
      "course/03-merci.srt": strToU8(srt),
      "course/01-bonjour.mp3": speech,
      "course/01-bonjour.txt": strToU8(script),
      "course/02-au-cafe.mp3": toneMp3(),
      "course/02-au-cafe.vtt": strToU8(vtt),
      "course/course.json": strToU8(
        JSON.stringify({ lessons: [{ name: "01-bonjour", title_fr: "Bonjour !", title_en: "Hello!" }] }),
      ),
      "__MACOSX/course/._01-bonjour.mp3": strToU8("metadata"),
    });
    const res = await drop(courseId, { "course.zip": zip });
    expect(res.statusCode, res.body).toBe(200);
    const items = itemsOf(res);
    expect(items.map((i) => [i.name, i.status, i.audio, i.script])).toEqual([
      ["01-bonjour", "aligning", "01-bonjour.mp3", "01-bonjour.txt"],
      ["02-au-cafe", "ready", "02-au-cafe.mp3", "02-au-cafe.vtt"],
      ["03-merci", "ready", "03-merci.mp3", "03-merci.srt"],
    ]);
    expect(res.json().data).toMatchObject({ created: 3, failed: 0 });
    const lessons = await lessonsOf(courseId);
    expect(lessons.map((l) => [l.title_fr, l.title_en])).toEqual([
      ["Bonjour !", "Hello!"],
      ["Au cafe", "Au cafe"],
      ["Merci", "Merci"],
    ]);
    // each lesson made is in the audit log, named by its title
    const audit = await t.request({
      method: "GET",
      url: "/api/v1/audit",
      query: { action: "lessons.create", target_type: "lesson", pageSize: "10" },
      token: admin,
    });
    const logged = (audit.json().data.entries as { target_id: string; target_label: string }[]).filter((e) =>
      items.some((i) => i.lesson_id === e.target_id),
    );
    expect(logged.map((e) => e.target_label).sort()).toEqual(["Au cafe", "Bonjour !", "Merci"]);
    const cues = await t.request({
      method: "GET",
      url: `/api/v1/courses/${courseId}/lessons/${items[2]?.lesson_id}/cues`,
      token: admin,
    });
    expect((cues.json().data.cues as LessonCue[]).map((c) => [c.start, c.end, c.text])).toEqual([
      [0.5, 2, "Merci"],
      [2.5, 4, "Au revoir"],
    ]);
    // the plain-text script went to the alignment job, which writes the lines
    await t.app.deps.services.alignment.settled();
    const job = await t.request({
      method: "GET",
      url: `/api/v1/courses/${courseId}/lessons/${items[0]?.lesson_id}/align`,
      token: admin,
    });
    expect(job.json().data.job).toMatchObject({ id: items[0]?.job_id, status: "done" });
  });

  it("names the file and the reason of each failure, keeps nothing of it, goes on with the others; a retry works", async () => {
    const courseId = await newCourse();
    const res = await drop(courseId, {
      "01-fake.mp3": "this is not audio at all, only words",
      "01-fake.txt": "Bonjour.",
      "02-lonely.txt": "Personne ne me lit.",
      "03-broken.mp3": toneMp3(),
      "03-broken.vtt": "WEBVTT\n\n00:05.000 --> 00:01.000\nÀ l'envers\n",
      "notes.docx": "PK not a script",
      "04-good.mp3": toneMp3(),
      "04-good.vtt": vtt,
    });
    expect(res.statusCode, res.body).toBe(200);
    const byName = new Map(itemsOf(res).map((i) => [i.name, i]));
    expect(byName.get("notes.docx")?.error).toMatchObject({
      file: "notes.docx",
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
    expect(byName.get("01-fake")?.error).toMatchObject({
      file: "01-fake.mp3",
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
    expect(byName.get("02-lonely")?.error).toMatchObject({ file: "02-lonely.txt", code: "IMPORT_UNPAIRED" });
    expect(byName.get("03-broken")?.error).toMatchObject({
      file: "03-broken.vtt",
      code: "IMPORT_SCRIPT_INVALID",
    });
    expect(byName.get("03-broken")?.error?.message).toMatch(/^03-broken\.vtt: /);
    expect(byName.get("04-good")).toMatchObject({ status: "ready", error: null });
    expect(res.json().data).toMatchObject({ created: 1, failed: 4 });
    expect((await lessonsOf(courseId)).map((l) => l.title_fr)).toEqual(["Good"]);
    // the failed lesson dropped again, fixed
    const retry = await drop(courseId, { "03-broken.mp3": toneMp3(), "03-broken.vtt": vtt });
    expect(itemsOf(retry)[0]).toMatchObject({ name: "03-broken", status: "ready" });
    expect((await lessonsOf(courseId)).map((l) => l.title_fr)).toEqual(["Good", "Broken"]);
  });

  it("refuses zip-slip paths and zip bombs whole, naming the zip, and still imports the rest", async () => {
    const courseId = await newCourse();
    const slip = zipSync({ "../evil.mp3": toneMp3(), "../evil.txt": strToU8("Bonjour.") });
    const absolute = zipSync({ "/etc/evil.mp3": toneMp3() });
    const many = zipSync(
      Object.fromEntries(Array.from({ length: 401 }, (_, i) => [`f${i}.txt`, strToU8("x")])),
    );
    // 3 MB of zeros pack to a few KB: far past the ratio allowed
    const bomb = zipSync({ "bomb.mp3": new Uint8Array(3 * 1024 * 1024) }, { level: 9 });
    // an entry declaring 10 bytes that unpacks to 200 KB (central directory's size rewritten)
    const lying = zipSync({ "lie.txt": strToU8("Bonjour. ".repeat(20_000)) }, { level: 9 });
    const view = new DataView(lying.buffer, lying.byteOffset, lying.byteLength);
    for (let i = 0; i < lying.length - 4; i++)
      if (view.getUint32(i, true) === 0x02014b50 || view.getUint32(i, true) === 0x04034b50)
        view.setUint32(i + (view.getUint32(i, true) === 0x02014b50 ? 24 : 22), 10, true);
    const res = await drop(courseId, {
      "slip.zip": slip,
      "absolute.zip": absolute,
      "many.zip": many,
      "bomb.zip": bomb,
      "lying.zip": lying,
      "not-a-zip.zip": "hello",
      "05-ok.mp3": toneMp3(),
      "05-ok.srt": srt,
    });
    expect(res.statusCode, res.body).toBe(200);
    const errors = Object.fromEntries(itemsOf(res).map((i) => [i.name, i.error?.message ?? i.status]));
    expect(errors).toEqual({
      "slip.zip": expect.stringMatching(/^slip\.zip: refused, .*outside the archive/),
      "absolute.zip": expect.stringMatching(/^absolute\.zip: refused, .*outside the archive/),
      "many.zip": expect.stringMatching(/^many\.zip: refused, it holds 401 entries/),
      "bomb.zip": expect.stringMatching(/^bomb\.zip: refused, .*times its packed size/),
      "lying.zip": expect.stringMatching(
        /^lying\.zip: refused, .*size than it declared|more than it declared/,
      ),
      "not-a-zip.zip": expect.stringMatching(/^not-a-zip\.zip: refused, it is not a readable zip/),
      "05-ok": "ready",
    });
    expect(
      itemsOf(res)
        .filter((i) => i.error)
        .every((i) => i.error?.code === "IMPORT_ARCHIVE_REFUSED"),
    ).toBe(true);
    expect((await lessonsOf(courseId)).map((l) => l.title_fr)).toEqual(["Ok"]);
  });

  it("answers 422 for an empty drop, 404 for no course, 403 for a learner", async () => {
    const courseId = await newCourse();
    const empty = await t.request({
      method: "POST",
      url: `/api/v1/courses/${courseId}/imports`,
      token: admin,
      ...multipart([]),
    });
    expect([empty.statusCode, empty.json().code]).toEqual([422, "IMPORT_NOTHING"]);
    expect((await drop("0190a0a0-0000-7000-8000-00000000dead", { "a.mp3": toneMp3() })).statusCode).toBe(404);
    const learner = await t.createUser();
    expect((await drop(courseId, { "a.mp3": toneMp3() }, learner.token)).statusCode).toBe(403);
  });
});
