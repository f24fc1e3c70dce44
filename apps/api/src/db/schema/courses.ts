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
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./identity";

export const courses = pgTable(
  "courses",
  {
    id: id(),
    slug: text("slug").notNull(),
    titleFr: text("title_fr").notNull(),
    titleEn: text("title_en").notNull(),
    descriptionFr: text("description_fr").notNull().default(""),
    descriptionEn: text("description_en").notNull().default(""),
    /** ISO 639-1 code of the language taught. */
    targetLanguage: text("target_language").notNull(),
    level: text("level", { enum: ["A1", "A2", "B1", "B2", "C1", "C2"] }).notNull(),
    /** Storage key of the cover image (a media row), or null. */
    coverPath: text("cover_path"),
    active: boolean("active").notNull().default(false),
    popular: boolean("popular").notNull().default(false),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("courses_slug_key").on(t.slug),
    index("courses_active_position_idx").on(t.active, t.position),
  ],
);

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
    /** Storage key of the MP3 (a media row), or null. */
    audioPath: text("audio_path"),
    /** Whole seconds, measured at upload. */
    audioDuration: integer("audio_duration"),
    /** Plain text, optionally `[mm:ss] sentence` lines. */
    transcript: text("transcript").notNull().default(""),
    links: jsonb("links").$type<LessonLinkValue[]>().notNull().default([]),
    free: boolean("free").notNull().default(false),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("lessons_course_position_idx").on(t.courseId, t.position)],
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
  ],
);

/** Uploaded files. `path` is the storage key (random name), never the client's file name. */
export const media = pgTable(
  "media",
  {
    id: id(),
    ownerId: uuid("owner_id").references(() => users.id, { onDelete: "set null" }),
    type: text("type", { enum: ["audio", "image"] }).notNull(),
    path: text("path").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    /** Whole seconds, audio only. */
    duration: integer("duration"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("media_path_key").on(t.path), index("media_owner_idx").on(t.ownerId)],
);
