import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { alignAudio, decodeAudio } from "@parlons/aligner";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { seedMediaDir } from "../../paths";
import { courses } from "../schema/courses";
import { lessonCues, lessons } from "../schema/lessons";
import { readDemoCourse } from "./course-files";
import { DEMO_COURSE_SLUG, DEMO_COURSE_SLUGS, DEMO_FRENCH_COURSE_SLUG, seedDemoCourses } from "./courses";

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const demoFiles = () => Promise.all(DEMO_COURSE_SLUGS.map((slug) => readDemoCourse(seedMediaDir, slug)));

describe("the demo courses", () => {
  it("are seeded once: two courses of six lessons of 1 to 3 minutes, every line in fr, en and es", async () => {
    const storage = t.app.deps.services.media.storage;
    await seedDemoCourses(t.database.db, storage);
    await seedDemoCourses(t.database.db, storage);
    const rows = await t.database.db
      .select()
      .from(courses)
      .where(inArray(courses.slug, [...DEMO_COURSE_SLUGS]))
      .orderBy(asc(courses.position));
    expect(rows.map((c) => [c.slug, c.targetLanguage, c.titleFr, c.titleEn])).toEqual([
      [DEMO_COURSE_SLUG, "en", "Anglais pour débutants", "English for beginners"],
      [DEMO_FRENCH_COURSE_SLUG, "fr", "Français pour débutants", "French for beginners"],
    ]);
    for (const course of rows) {
      // synthesized speech, and said so
      expect(course.descriptionFr).toContain("Voix de synthèse");
      expect(course.descriptionEn).toContain("Synthesized voices");
      const list = await t.database.db
        .select()
        .from(lessons)
        .where(eq(lessons.courseId, course.id))
        .orderBy(asc(lessons.position));
      expect(list.length).toBeGreaterThanOrEqual(6);
      expect(list.map((l) => l.free)).toEqual([true, true, true, true, false, false]);
      for (const lesson of list) {
        expect(lesson.audioDuration).toBeGreaterThanOrEqual(60);
        expect(lesson.audioDuration).toBeLessThanOrEqual(180);
        const cues = await t.database.db
          .select()
          .from(lessonCues)
          .where(eq(lessonCues.lessonId, lesson.id))
          .orderBy(asc(lessonCues.position));
        expect(cues.length).toBeGreaterThanOrEqual(15);
        for (const [i, cue] of cues.entries()) {
          expect(
            [cue.text, cue.translationFr, cue.translationEn, cue.translationEs].every((s) => s.trim()),
          ).toBe(true);
          expect(cue.end).toBeGreaterThan(cue.start);
          expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1]?.end ?? 0);
          expect(cue.end).toBeLessThanOrEqual(lesson.audioDuration ?? 0);
        }
      }
    }

    // the learner's view: lesson 1 open with its lines, lesson 5 locked, the audio served
    const learner = await t.createUser();
    const [english] = rows;
    const view = (
      await t.request({ method: "GET", url: `/api/v1/courses/${english?.id}/lessons`, token: learner.token })
    ).json().data.lessons;
    expect(view.map((l: { locked: boolean }) => l.locked)).toEqual([false, false, false, false, true, true]);
    expect(view[0].cues[2]).toMatchObject({ text: "My name is Anna.", translation_fr: "Je m'appelle Anna." });
    const audio = await t.request({ method: "GET", url: view[0].audio.url, headers: { range: "bytes=0-2" } });
    expect(audio.statusCode).toBe(206);
    expect(audio.rawPayload.toString("latin1")).toMatch(/^(ID3|\xff)/);
  });

  it("hold the default daily goal of 10 minutes in free lessons alone, in at most 4 MB of audio", async () => {
    const all = await demoFiles();
    const free = all.flatMap((c) => c.lessons.filter((l) => l.free)).reduce((s, l) => s + l.seconds, 0);
    expect(free).toBeGreaterThanOrEqual(600);
    let bytes = 0;
    for (const course of all)
      for (const lesson of course.lessons)
        bytes += (await stat(path.join(seedMediaDir, "demo", course.slug, `${lesson.file}.mp3`))).size;
    expect(bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it("have audio that decodes, and line times the aligner gives again on it (signal mode)", async () => {
    for (const course of await demoFiles()) {
      for (const lesson of course.lessons) {
        const mp3 = new Uint8Array(
          await readFile(path.join(seedMediaDir, "demo", course.slug, `${lesson.file}.mp3`)),
        );
        const decoded = await decodeAudio(mp3);
        expect(Math.abs(decoded.duration - lesson.seconds), `${lesson.file} lasts`).toBeLessThan(0.2);
        const result = await alignAudio(
          mp3,
          lesson.lines.map((l) => l.text),
          { lang: course.target_language, synthesis: "off" },
        );
        expect(result.cues).toHaveLength(lesson.cues.length);
        for (const [i, cue] of result.cues.entries()) {
          const committed = lesson.cues[i];
          expect(
            Math.abs(cue.start - (committed?.start ?? -1)),
            `${lesson.file} line ${i + 1} start`,
          ).toBeLessThan(0.05);
          expect(Math.abs(cue.end - (committed?.end ?? -1)), `${lesson.file} line ${i + 1} end`).toBeLessThan(
            0.05,
          );
        }
      }
    }
  }, 180_000);
});
