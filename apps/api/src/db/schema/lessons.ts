import type { Translations } from "@parlons/contract";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { courses } from "./courses";
import { users } from "./users";

export interface LessonLinkValue {
  label: string;
  url: string;
}

export const lessons = pgTable(
  "lessons",
  {
    id: id(),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    titleFr: text("title_fr").notNull(),
    titleEn: text("title_en").notNull(),
    textFr: text("text_fr").notNull().default(""),
    textEn: text("text_en").notNull().default(""),
    /** Title and text in the locales beyond French and English (`{ es: { title, text } }`). */
    translations: jsonb("translations").$type<Translations<"title" | "text">>().notNull().default({}),
    /** Storage key of the MP3 (a media row), or null. */
    audioPath: text("audio_path"),
    /** Whole seconds, measured at upload. */
    audioDuration: integer("audio_duration"),
    /** Plain text, optionally `[mm:ss] sentence` lines. */
    transcript: text("transcript").notNull().default(""),
    links: jsonb("links").$type<LessonLinkValue[]>().notNull().default([]),
    free: boolean("free").notNull().default(false),
    /** Published: learners and the catalogue see it. A new lesson is a draft. */
    active: boolean("active").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("lessons_course_position_idx").on(t.courseId, t.position)],
);

/**
 * The lines of a lesson's transcript: start and end in seconds, the text in the language taught
 * and its translations. Owned by the lessons module; review cards point at them.
 */
export const lessonCues = pgTable(
  "lesson_cues",
  {
    id: id(),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    start: doublePrecision("start").notNull(),
    end: doublePrecision("end").notNull(),
    text: text("text").notNull(),
    translationFr: text("translation_fr").notNull().default(""),
    translationEn: text("translation_en").notNull().default(""),
    /** Spanish, written by the translations import and the lines editor. */
    translationEs: text("translation_es").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("lesson_cues_lesson_position_idx").on(t.lessonId, t.position)],
);

/** One row per learner and lesson (upserted, so concurrent saves never duplicate it). */
export const lessonProgress = pgTable(
  "lesson_progress",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    done: boolean("done").notNull().default(false),
    doneAt: timestamp("done_at", { withTimezone: true }),
    /** Seconds into the audio: the resume point. */
    lastPosition: doublePrecision("last_position").notNull().default(0),
    playCount: integer("play_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.lessonId] }),
    index("lesson_progress_lesson_idx").on(t.lessonId),
    index("lesson_progress_user_done_idx").on(t.userId, t.doneAt),
    // a learner's latest activity (the mail audience "inactive for N days")
    index("lesson_progress_user_updated_idx").on(t.userId, t.updatedAt),
    // what the analytics job reads since its last run (modules/analytics)
    index("lesson_progress_updated_idx").on(t.updatedAt),
    index("lesson_progress_created_idx").on(t.createdAt),
    index("lesson_progress_done_at_idx").on(t.doneAt),
  ],
);

/**
 * Progress calls already applied, by the Idempotency-Key the client sent: a call queued offline
 * (or whose answer was lost) and sent again is answered without being applied twice (a play
 * counted twice). Keys older than 30 days are dropped as the same learner sends new ones.
 */
export const lessonProgressRequests = pgTable(
  "lesson_progress_requests",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
