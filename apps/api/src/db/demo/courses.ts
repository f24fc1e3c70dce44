import { stat } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Storage } from "../../integrations/storage/storage";
import { seedMediaDir } from "../../paths";
import type { Db } from "../client";
import { courses } from "../schema/courses";
import { lessonCues, lessons } from "../schema/lessons";
import { media } from "../schema/media";
import { type DemoCourse, type DemoCue, demoAudioKey, demoCoverKey, readDemoCourse } from "./course-files";

/** "Anglais pour débutants": English for French speakers, the first course of the catalogue. */
export const DEMO_COURSE_SLUG = "anglais-pour-debutants";
/** "Français pour débutants": French for English speakers. */
export const DEMO_FRENCH_COURSE_SLUG = "francais-pour-debutants";
/** The demo courses in catalogue order. */
export const DEMO_COURSE_SLUGS = [DEMO_COURSE_SLUG, DEMO_FRENCH_COURSE_SLUG] as const;

/** Copies a course's cover and audio into storage (again when missing) and records them as media. */
async function seedFiles(db: Db, storage: Storage, dir: string, course: DemoCourse): Promise<void> {
  const files = [
    {
      key: demoCoverKey(course),
      source: path.join(dir, course.cover),
      type: "image" as const,
      mime: "image/svg+xml",
    },
    ...course.lessons.map((l) => ({
      key: demoAudioKey(course, l),
      source: path.join(dir, "demo", course.slug, `${l.file}.mp3`),
      type: "audio" as const,
      mime: "audio/mpeg",
      duration: Math.round(l.seconds),
    })),
  ];
  for (const f of files) {
    if (!(await storage.stat(f.key))) await storage.copyFile(f.key, f.source);
    await db
      .insert(media)
      .values({
        type: f.type,
        path: f.key,
        mimeType: f.mime,
        size: (await stat(f.source)).size,
        duration: "duration" in f ? f.duration : null,
      })
      .onConflictDoNothing({ target: media.path });
  }
}

/** The lesson's line in the course's own language is its text; the others are its translations. */
function translation(course: DemoCourse, cue: DemoCue, lang: "fr" | "en" | "es"): string {
  return course.target_language === lang ? cue.text : (cue[lang] ?? "");
}

async function seedCourse(db: Db, course: DemoCourse, position: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: courses.id }).from(courses).where(eq(courses.slug, course.slug));
    if (existing) return;
    const [row] = await tx
      .insert(courses)
      .values({
        slug: course.slug,
        titleFr: course.title_fr,
        titleEn: course.title_en,
        descriptionFr: course.description_fr,
        descriptionEn: course.description_en,
        translations: { es: { title: course.title_es, description: course.description_es } },
        targetLanguage: course.target_language,
        level: course.level,
        coverPath: demoCoverKey(course),
        active: true,
        popular: true,
        position,
      })
      .onConflictDoNothing({ target: courses.slug })
      .returning({ id: courses.id });
    if (!row) return; // another process seeded it meanwhile
    const rows = await tx
      .insert(lessons)
      .values(
        course.lessons.map((l, i) => ({
          courseId: row.id,
          position: i,
          titleFr: l.title_fr,
          titleEn: l.title_en,
          textFr: l.text_fr,
          textEn: l.text_en,
          translations: { es: { title: l.title_es, text: l.text_es } },
          audioPath: demoAudioKey(course, l),
          audioDuration: Math.round(l.seconds),
          transcript: "",
          links: [],
          free: l.free,
          active: true,
        })),
      )
      .returning({ id: lessons.id });
    // the lines with the times the aligner measured on the audio (the committed WebVTT)
    await tx.insert(lessonCues).values(
      course.lessons.flatMap((l, i) =>
        l.cues.map((c, n) => ({
          lessonId: (rows[i] as { id: string }).id,
          position: n,
          start: c.start,
          end: c.end,
          text: c.text,
          translationFr: translation(course, c, "fr"),
          translationEn: translation(course, c, "en"),
          translationEs: translation(course, c, "es"),
        })),
      ),
    );
  });
}

/**
 * The demo courses of seed-media/demo: "Anglais pour débutants" and "Français pour débutants",
 * six lessons each of synthesized speech, their line times computed by the aligner
 * (scripts/demo-audio.mjs). Idempotent: files missing from storage are copied again, each course
 * is created once (by slug); a course already there, even an older version of it, is left alone.
 */
export async function seedDemoCourses(db: Db, storage: Storage, dir = seedMediaDir): Promise<void> {
  for (const [position, slug] of DEMO_COURSE_SLUGS.entries()) {
    const course = await readDemoCourse(dir, slug);
    await seedFiles(db, storage, dir, course);
    await seedCourse(db, course, position);
  }
}
