import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Storage } from "../../integrations/storage/storage";
import { seedMediaDir } from "../../paths";
import type { Db } from "../client";
import { courses } from "../schema/courses";
import { lessonCues, lessons } from "../schema/lessons";
import { media } from "../schema/media";

interface SeedLesson {
  file: string;
  title_en: string;
  title_fr: string;
  text_en: string;
  text_fr: string;
  cues: { start: number; text: string; translation_fr: string; translation_en: string }[];
  duration_seconds: number;
  free: boolean;
}

export const DEMO_COURSE_SLUG = "anglais-pour-debutants";

/**
 * The demo course "Anglais pour débutants" with the three spoken lessons of seed-media
 * (lesson 1 free). Idempotent: files missing from storage are copied again, rows are
 * created once.
 */
export async function seedDemoCourse(db: Db, storage: Storage, dir = seedMediaDir): Promise<void> {
  const list = JSON.parse(await readFile(path.join(dir, "lessons.json"), "utf8")) as SeedLesson[];
  const files = [
    {
      key: "images/demo-cover.svg",
      source: "cover.svg",
      type: "image" as const,
      mime: "image/svg+xml",
      duration: null,
    },
    ...list.map((l, i) => ({
      key: `audio/demo-lesson-${i + 1}.mp3`,
      source: l.file,
      type: "audio" as const,
      mime: "audio/mpeg",
      duration: l.duration_seconds,
    })),
  ];
  for (const f of files) {
    const source = path.join(dir, f.source);
    if (!(await storage.stat(f.key))) await storage.copyFile(f.key, source);
    await db
      .insert(media)
      .values({
        type: f.type,
        path: f.key,
        mimeType: f.mime,
        size: (await stat(source)).size,
        duration: f.duration,
      })
      .onConflictDoNothing({ target: media.path });
  }

  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: courses.id })
      .from(courses)
      .where(eq(courses.slug, DEMO_COURSE_SLUG));
    if (existing) return;
    const [course] = await tx
      .insert(courses)
      .values({
        slug: DEMO_COURSE_SLUG,
        titleFr: "Anglais pour débutants",
        titleEn: "English for beginners",
        descriptionFr:
          "Vos premiers pas en anglais : saluer, commander au café, compter et dire l'heure. Écoutez, répétez, progressez.",
        descriptionEn:
          "Your first steps in English: greetings, ordering at a café, numbers and the time. Listen, repeat, progress.",
        targetLanguage: "en",
        level: "A1",
        coverPath: "images/demo-cover.svg",
        active: true,
        popular: true,
        position: 0,
      })
      .onConflictDoNothing({ target: courses.slug })
      .returning({ id: courses.id });
    if (!course) return; // another process seeded it meanwhile
    const rows = await tx
      .insert(lessons)
      .values(
        list.map((l, i) => ({
          courseId: course.id,
          position: i,
          titleFr: l.title_fr,
          titleEn: l.title_en,
          textFr: l.text_fr,
          textEn: l.text_en,
          audioPath: `audio/demo-lesson-${i + 1}.mp3`,
          audioDuration: l.duration_seconds,
          transcript: "",
          links: [],
          free: l.free,
          active: true,
        })),
      )
      .returning({ id: lessons.id });
    // the lines, with the times measured on the audio: each ends where the next starts
    await tx.insert(lessonCues).values(
      list.flatMap((l, i) =>
        l.cues.map((c, n) => ({
          lessonId: (rows[i] as { id: string }).id,
          position: n,
          start: c.start,
          end: l.cues[n + 1]?.start ?? l.duration_seconds,
          text: c.text,
          translationFr: c.translation_fr,
          translationEn: c.translation_en,
        })),
      ),
    );
  });
}
