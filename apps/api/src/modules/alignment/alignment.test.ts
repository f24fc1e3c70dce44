import { readFileSync } from "node:fs";
import path from "node:path";
import type { AlignmentJob, LessonCue } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { createCourse, uploadAudio } from "../../../test/helpers/learning";

// speech synthesized for the aligner's tests, with the times each line was said (known truth)
const clips = path.resolve(import.meta.dirname, "../../../../../packages/aligner/test/fixtures");
const speech = readFileSync(path.join(clips, "fr-pauses.mp3"));
const script = readFileSync(path.join(clips, "fr-pauses.txt"), "utf8");
const truth = JSON.parse(readFileSync(path.join(clips, "fr-pauses.json"), "utf8")) as {
  starts: number[];
  ends: number[];
};
const missing = "00000000-0000-4000-8000-000000000000";

let t: TestContext;
let admin: string;
let course: { id: string };
let audioPath: string;
beforeAll(async () => {
  // the signal mode, as on a machine without espeak-ng (CI's test environment)
  t = await buildTestApp({ env: { ALIGN_SYNTHESIS: "off" } });
  admin = await t.adminToken();
  const upload = await uploadAudio(t, admin, speech);
  audioPath = upload.file_path;
  course = await createCourse(t, admin, { target_language: "fr" });
}, 60_000);
afterAll(() => t.close());

async function newLesson(withAudio = true) {
  const res = await t.request({
    method: "POST",
    url: `/api/v1/courses/${course.id}/lessons`,
    token: admin,
    payload: {
      title_fr: "Présentations",
      title_en: "Introductions",
      audio: withAudio ? audioPath : null,
      free: true,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.lesson.id as string;
}

const alignUrl = (lessonId: string, courseId = course.id) =>
  `/api/v1/courses/${courseId}/lessons/${lessonId}/align`;
const align = (lessonId: string, payload: object, token = admin) =>
  t.request({ method: "POST", url: alignUrl(lessonId), token, payload });

/** Waits for this process's alignments, then reads the lesson's latest. */
async function finished(lessonId: string): Promise<AlignmentJob> {
  await t.app.deps.services.alignment.settled();
  const res = await t.request({ method: "GET", url: alignUrl(lessonId), token: admin });
  expect(res.statusCode).toBe(200);
  return res.json().data.job as AlignmentJob;
}

async function cuesOf(lessonId: string): Promise<LessonCue[]> {
  const res = await t.request({
    method: "GET",
    url: `/api/v1/courses/${course.id}/lessons/${lessonId}/cues`,
    token: admin,
  });
  return res.json().data.cues as LessonCue[];
}

describe("POST …/lessons/{id}/align", { timeout: 60_000 }, () => {
  it("aligns the script in a worker, reports progress and mode, and writes the lines", async () => {
    const lessonId = await newLesson();
    const queued = await align(lessonId, { script, split: "lines" });
    expect(queued.statusCode).toBe(202);
    const job0 = queued.json().data.job as AlignmentJob;
    expect(job0).toMatchObject({ status: "queued", progress: 0, apply: "merge", lang: "fr", mode: null });
    const job = await finished(lessonId);
    expect(job).toMatchObject({ id: job0.id, status: "done", progress: 1, mode: "signal", error: null });
    expect(job.elapsed).toBeGreaterThan(0);
    expect(job.lines.map((l) => l.text)).toEqual(script.trim().split("\n"));
    job.lines.forEach((line, i) => {
      expect(Math.abs(line.start - (truth.starts[i] as number)), `start of line ${i}`).toBeLessThan(0.25);
      expect(Math.abs(line.end - (truth.ends[i] as number)), `end of line ${i}`).toBeLessThan(0.35);
      expect(line.confidence).toBeGreaterThanOrEqual(0);
      expect(line.confidence).toBeLessThanOrEqual(1);
      expect(line.doubtful).toBe(line.confidence < 0.5);
    });
    // the lines are the lesson's, with the ids the job reports
    const cues = await cuesOf(lessonId);
    expect(cues.map((c) => [c.id, c.start, c.end, c.text])).toEqual(
      job.lines.map((l) => [l.id, l.start, l.end, l.text]),
    );
  });

  it("merges: unchanged lines keep their id and translations (and so their review cards); learners see the new lines at once", async () => {
    const lessonId = await newLesson();
    const put = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${course.id}/lessons/${lessonId}/cues`,
      token: admin,
      payload: {
        cues: [
          { start: 0, end: 1, text: "Oui.", translation_en: "Yes.", translation_fr: "Oui." },
          { start: 1, end: 2, text: "Une ligne qui n'est plus dans le script." },
        ],
      },
    });
    expect(put.statusCode).toBe(200);
    const [oui] = put.json().data.cues as LessonCue[];
    // a learner's list is read (and kept) before the alignment
    const learner = await t.createUser();
    const listOf = async () =>
      (
        await t.request({ method: "GET", url: `/api/v1/courses/${course.id}/lessons`, token: learner.token })
      ).json().data.lessons as { id: string; cues: LessonCue[] }[];
    expect((await listOf()).find((l) => l.id === lessonId)?.cues).toHaveLength(2);

    expect((await align(lessonId, { script, split: "lines", apply: "merge" })).statusCode).toBe(202);
    const job = await finished(lessonId);
    expect(job.status).toBe("done");
    const cues = await cuesOf(lessonId);
    expect(cues).toHaveLength(4);
    const kept = cues.find((c) => c.text === "Oui.");
    expect(kept).toMatchObject({ id: oui?.id, translation_en: "Yes.", translation_fr: "Oui." });
    expect(kept?.start).toBeCloseTo(job.lines[1]?.start as number);
    expect(cues.some((c) => c.text.startsWith("Une ligne"))).toBe(false);
    // the change was announced: the learner's kept list is dropped
    expect((await listOf()).find((l) => l.id === lessonId)?.cues.map((c) => c.text)).toEqual(
      script.trim().split("\n"),
    );

    // replace: every line new, translations gone
    expect((await align(lessonId, { script, split: "lines", apply: "replace" })).statusCode).toBe(202);
    expect((await finished(lessonId)).status).toBe("done");
    const replaced = await cuesOf(lessonId);
    expect(replaced.map((c) => c.id)).not.toContain(oui?.id);
    expect(replaced.every((c) => c.translation_en === "")).toBe(true);
  });

  it("splits paragraphs into sentences by the language's rules", async () => {
    const lessonId = await newLesson();
    const paragraph = script.trim().split("\n").join(" ");
    const res = await align(lessonId, { script: paragraph, split: "sentences" });
    expect(res.statusCode).toBe(202);
    const job = await finished(lessonId);
    expect(job.lines.map((l) => l.text)).toEqual(script.trim().split("\n"));
  });

  it("runs one alignment of a lesson at a time: the second asked at once is refused with 409", async () => {
    const lessonId = await newLesson();
    const [a, b] = await Promise.all([align(lessonId, { script }), align(lessonId, { script })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.statusCode === 409)?.json().code).toBe("ALIGNMENT_RUNNING");
    expect((await finished(lessonId)).status).toBe("done");
    // once done, the lesson can be aligned again
    expect((await align(lessonId, { script })).statusCode).toBe(202);
    await finished(lessonId);
  });

  it("answers the client's mistakes with a code: lesson or course not found, no audio, empty or too long script", async () => {
    const lessonId = await newLesson();
    const notFound = await align(missing, { script });
    expect([notFound.statusCode, notFound.json().code]).toEqual([404, "NOT_FOUND"]);
    const otherCourse = await t.request({
      method: "POST",
      url: alignUrl(lessonId, missing),
      token: admin,
      payload: { script },
    });
    expect(otherCourse.statusCode).toBe(404);
    const silent = await newLesson(false);
    const noAudio = await align(silent, { script });
    expect([noAudio.statusCode, noAudio.json().code]).toEqual([409, "LESSON_AUDIO_MISSING"]);
    const empty = await align(lessonId, { script: " \n\n  " });
    expect([empty.statusCode, empty.json().code]).toEqual([422, "SCRIPT_EMPTY"]);
    expect(empty.json().errors.script).toBeTruthy();
    const tooMany = await align(lessonId, {
      script: Array.from({ length: 1001 }, (_, i) => `Ligne ${i}.`).join("\n"),
    });
    expect([tooMany.statusCode, tooMany.json().code]).toEqual([422, "SCRIPT_TOO_LONG"]);
    const badBody = await align(lessonId, { script, apply: "sideways" });
    expect([badBody.statusCode, badBody.json().code]).toEqual([422, "VALIDATION_FAILED"]);
    // more lines than the audio can hold: the job fails with the aligner's code, the lines stay
    const before = await cuesOf(lessonId);
    const crowded = Array.from({ length: 400 }, (_, i) => `Ligne ${i}.`).join("\n");
    expect((await align(lessonId, { script: crowded, split: "lines" })).statusCode).toBe(202);
    const failed = await finished(lessonId);
    expect(failed).toMatchObject({ status: "failed", error: { code: "SCRIPT_TOO_LONG" }, lines: [] });
    expect(await cuesOf(lessonId)).toEqual(before);
    // nothing aligned yet: the latest job is null
    const none = await t.request({ method: "GET", url: alignUrl(silent), token: admin });
    expect(none.json().data.job).toBeNull();
  });

  it("is for staff who may edit lessons", async () => {
    const lessonId = await newLesson();
    const learner = await t.createUser();
    expect((await align(lessonId, { script }, learner.token)).statusCode).toBe(403);
    expect(
      (await t.request({ method: "POST", url: alignUrl(lessonId), payload: { script } })).statusCode,
    ).toBe(401);
    expect(
      (await t.request({ method: "GET", url: alignUrl(lessonId), token: learner.token })).statusCode,
    ).toBe(403);
  });
});
