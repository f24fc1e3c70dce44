import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AlignmentJob, LessonCue } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { createCourse, uploadAudio } from "../../../test/helpers/learning";

// speech synthesized for the aligner's tests, with the times each line was said (known truth)
const clips = path.resolve(import.meta.dirname, "../../../../../packages/aligner/test/fixtures");
const speech = readFileSync(path.join(clips, "fr-pauses.mp3"));
const truth = JSON.parse(readFileSync(path.join(clips, "fr-pauses.json"), "utf8")) as {
  starts: number[];
  ends: number[];
};
const missing = "00000000-0000-4000-8000-000000000000";
// every line said, "Oui." too (a one-word line of 0.2 s between clear pauses is a line of its own)
const said = truth.starts.map((start, i) => ({ start, end: truth.ends[i] as number }));

let t: TestContext;
let admin: string;
let course: { id: string };
beforeAll(async () => {
  t = await buildTestApp({ env: { ALIGN_SYNTHESIS: "off" } });
  admin = await t.adminToken();
  course = await createCourse(t, admin, { target_language: "fr" });
}, 60_000);
afterAll(() => t.close());

/** A lesson with its own upload of `audio` (so that a test may spoil the stored file). */
async function newLesson(audio: typeof speech | null = speech) {
  const upload = audio ? await uploadAudio(t, admin, audio) : null;
  const res = await t.request({
    method: "POST",
    url: `/api/v1/courses/${course.id}/lessons`,
    token: admin,
    payload: { title_fr: "Sans script", title_en: "No script", audio: upload?.file_path ?? null, free: true },
  });
  expect(res.statusCode).toBe(201);
  return { id: res.json().data.lesson.id as string, audioPath: upload?.file_path ?? null };
}

const proposeUrl = (lessonId: string, courseId = course.id) =>
  `/api/v1/courses/${courseId}/lessons/${lessonId}/propose-lines`;
const propose = (lessonId: string, payload: object = {}, token = admin) =>
  t.request({ method: "POST", url: proposeUrl(lessonId), token, payload });

async function finished(lessonId: string): Promise<AlignmentJob> {
  await t.app.deps.services.alignment.settled();
  const res = await t.request({ method: "GET", url: proposeUrl(lessonId), token: admin });
  expect(res.statusCode).toBe(200);
  return res.json().data.job as AlignmentJob;
}

const cuesUrl = (lessonId: string) => `/api/v1/courses/${course.id}/lessons/${lessonId}/cues`;
async function cuesOf(lessonId: string): Promise<LessonCue[]> {
  return (await t.request({ method: "GET", url: cuesUrl(lessonId), token: admin })).json().data.cues;
}

describe("POST …/lessons/{id}/propose-lines (audio without a script)", { timeout: 60_000 }, () => {
  it("proposes a line per stretch of speech in a worker, with progress, saved with empty text", async () => {
    const { id } = await newLesson();
    const queued = await propose(id);
    expect(queued.statusCode).toBe(202);
    expect(queued.json().data.job).toMatchObject({
      kind: "propose",
      status: "queued",
      apply: "keep",
      progress: 0,
    });
    const job = await finished(id);
    expect(job).toMatchObject({ kind: "propose", status: "done", progress: 1, mode: "signal", error: null });
    // the lines fall where the speech is: one per line said, each start and end near the truth
    expect(job.lines).toHaveLength(said.length);
    job.lines.forEach((line, i) => {
      expect(line.text).toBe("");
      expect(Math.abs(line.start - (said[i]?.start as number)), `start of line ${i}`).toBeLessThan(0.25);
      expect(Math.abs(line.end - (said[i]?.end as number)), `end of line ${i}`).toBeLessThan(0.35);
    });
    const cues = await cuesOf(id);
    expect(cues.map((c) => [c.id, c.start, c.end, c.text])).toEqual(
      job.lines.map((l) => [l.id, l.start, l.end, ""]),
    );
    // the alignment route shows the same latest job
    const viaAlign = await t.request({
      method: "GET",
      url: `/api/v1/courses/${course.id}/lessons/${id}/align`,
      token: admin,
    });
    expect(viaAlign.json().data.job.id).toBe(job.id);

    // staff type the text of some segments and save: the others may stay empty
    const typed = cues.map((c, i) => ({
      id: c.id,
      start: c.start,
      end: c.end,
      text: i === 0 ? "Bonjour." : "",
    }));
    const saved = await t.request({
      method: "PUT",
      url: cuesUrl(id),
      token: admin,
      payload: { cues: typed },
    });
    expect(saved.statusCode).toBe(200);
    expect((saved.json().data.cues as LessonCue[]).map((c) => c.text)).toEqual(typed.map((c) => c.text));
    expect((saved.json().data.cues as LessonCue[]).map((c) => c.id)).toEqual(cues.map((c) => c.id));

    // a learner sees the segments at once (their times, the one text typed)
    const learner = await t.createUser();
    const list = (
      await t.request({ method: "GET", url: `/api/v1/courses/${course.id}/lessons`, token: learner.token })
    ).json().data.lessons as { id: string; cues: LessonCue[] }[];
    expect(list.find((l) => l.id === id)?.cues.map((c) => c.text)).toEqual(typed.map((c) => c.text));
  });

  it("keeps a lesson's lines unless asked to replace them", async () => {
    const { id } = await newLesson();
    const put = await t.request({
      method: "PUT",
      url: cuesUrl(id),
      token: admin,
      payload: { cues: [{ start: 0, end: 1, text: "Oui.", translation_en: "Yes." }] },
    });
    expect(put.statusCode).toBe(200);
    const before = await cuesOf(id);
    const kept = await propose(id, { apply: "keep" });
    expect([kept.statusCode, kept.json().code]).toEqual([409, "LESSON_HAS_LINES"]);
    const byDefault = await propose(id);
    expect(byDefault.json().code).toBe("LESSON_HAS_LINES");
    expect(await cuesOf(id)).toEqual(before);

    expect((await propose(id, { apply: "replace" })).statusCode).toBe(202);
    const job = await finished(id);
    expect(job).toMatchObject({ status: "done", apply: "replace" });
    const after = await cuesOf(id);
    expect(after).toHaveLength(said.length);
    expect(after.map((c) => c.id)).not.toContain(before[0]?.id);
    expect(after.every((c) => c.text === "" && c.translation_en === "")).toBe(true);
  });

  it("runs one job of a lesson at a time: a proposal while one is running is refused with 409", async () => {
    const { id } = await newLesson();
    const [a, b] = await Promise.all([propose(id), propose(id, { apply: "replace" })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.statusCode === 409)?.json().code).toBe("ALIGNMENT_RUNNING");
    expect((await finished(id)).status).toBe("done");
  });

  it("answers the client's mistakes with a code: not found, no audio, bad body, unreadable audio", async () => {
    const { id, audioPath } = await newLesson();
    const notFound = await propose(missing);
    expect([notFound.statusCode, notFound.json().code]).toEqual([404, "NOT_FOUND"]);
    const otherCourse = await t.request({
      method: "POST",
      url: proposeUrl(id, missing),
      token: admin,
      payload: {},
    });
    expect(otherCourse.statusCode).toBe(404);
    const silent = await newLesson(null);
    const noAudio = await propose(silent.id);
    expect([noAudio.statusCode, noAudio.json().code]).toEqual([409, "LESSON_AUDIO_MISSING"]);
    const badBody = await propose(id, { apply: "merge" });
    expect([badBody.statusCode, badBody.json().code]).toEqual([422, "VALIDATION_FAILED"]);

    // the stored file spoilt: the job fails with a code, the lesson keeps no line
    const junk = path.join(tmpdir(), `junk-${process.pid}.mp3`);
    writeFileSync(junk, Buffer.from("not audio at all, whatever its name says ".repeat(50)));
    await t.app.deps.services.media.storage.copyFile(audioPath as string, junk);
    expect((await propose(id)).statusCode).toBe(202);
    const failed = await finished(id);
    expect(failed).toMatchObject({
      kind: "propose",
      status: "failed",
      error: { code: "AUDIO_UNREADABLE" },
      lines: [],
    });
    expect(await cuesOf(id)).toEqual([]);
  });

  it("is for staff who may edit lessons", async () => {
    const { id } = await newLesson();
    const learner = await t.createUser();
    expect((await propose(id, {}, learner.token)).statusCode).toBe(403);
    expect((await t.request({ method: "POST", url: proposeUrl(id), payload: {} })).statusCode).toBe(401);
    expect((await t.request({ method: "GET", url: proposeUrl(id), token: learner.token })).statusCode).toBe(
      403,
    );
  });
});
