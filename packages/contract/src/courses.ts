import { z } from "zod";
import { envelope, pagination, publishedNaming } from "./common";
import { lessonDrip } from "./lessons";
import { perLocale, perLocaleText } from "./localized";

/**
 * Courses and the learner's progress through them (issue 3). Their lessons are in lessons.ts,
 * transcripts in transcripts.ts, uploads in media.ts.
 */

export const CEFR_LEVELS = ["A1", "A2", "B1", "B2", "C1", "C2"] as const;
export const cefrLevel = z.enum(CEFR_LEVELS);
export type CefrLevel = z.infer<typeof cefrLevel>;

/** Languages a course can teach (ISO 639-1). */
export const TARGET_LANGUAGES = ["en", "fr", "es", "de", "it", "pt", "nl", "ar", "zh", "ja", "ru"] as const;
export const targetLanguage = z.enum(TARGET_LANGUAGES);

// ---------------------------------------------------------------- courses

const text = (max: number) => z.string().trim().max(max);

/**
 * How a course's lessons open over time (on top of the plan's rule): all at once, in order (each
 * after the previous one is done), or one every `drip_days` days from the learner's start.
 */
export const DRIP_MODES = ["open", "sequence", "days"] as const;
export const dripMode = z.enum(DRIP_MODES);
export type DripMode = z.infer<typeof dripMode>;

const courseFields = {
  drip_mode: dripMode,
  /** With `days`: lesson n (from 0) opens n × drip_days days after the learner's first listen. */
  drip_days: z.number().int().min(1).max(365),
  title_fr: text(200).min(1, "Title is required"),
  title_en: text(200).min(1, "Title is required"),
  description_fr: text(10_000),
  description_en: text(10_000),
  ...perLocale("title", text(200)),
  ...perLocale("description", text(10_000)),
  target_language: targetLanguage,
  level: cefrLevel,
  /** A `file_path` answered by the media upload (type image), or null. */
  cover: z.string().max(300).nullable(),
  active: z.boolean(),
  popular: z.boolean(),
  position: z.number().int().min(0).max(100_000),
  /** Derived from title_fr when absent (spec's slug helper); made unique with -2, -3… */
  slug: z
    .string()
    .trim()
    .max(200)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and hyphens")
    .optional(),
};

export const courseBody = z
  .object({
    ...courseFields,
    description_fr: courseFields.description_fr.default(""),
    description_en: courseFields.description_en.default(""),
    ...perLocale("title", text(200).default("")),
    ...perLocale("description", text(10_000).default("")),
    cover: courseFields.cover.default(null),
    active: courseFields.active.default(false),
    popular: courseFields.popular.default(false),
    position: courseFields.position.default(0),
    drip_mode: courseFields.drip_mode.default("open"),
    drip_days: courseFields.drip_days.default(7),
  })
  .meta({
    examples: [
      {
        title_fr: "L'anglais au bureau",
        title_en: "English at the office",
        description_fr: "Vingt leçons audio pour les réunions, les appels et les courriels.",
        description_en: "Twenty audio lessons for meetings, calls and emails.",
        title_es: "Inglés en la oficina",
        description_es: "Veinte lecciones de audio para reuniones, llamadas y correos.",
        target_language: "en",
        level: "B1",
        cover: null,
        active: true,
        popular: false,
        position: 0,
      },
    ],
  });
export type CourseBody = z.infer<typeof courseBody>;
/**
 * `PUT /v1/courses/{id}`: any subset of the fields; an omitted field keeps its stored value
 * (built from the fields without their creation defaults, which `.partial()` would keep).
 */
export const courseUpdateBody = z.object(courseFields).partial();
export type CourseUpdateBody = z.infer<typeof courseUpdateBody>;

export const courseItem = z.object({
  ...publishedNaming,
  target_language: z.string(),
  level: cefrLevel,
  /** Storage path of the cover (what the form sends back), or null. */
  cover: z.string().nullable(),
  /** Where the browser loads the cover from (public), or null. */
  cover_url: z.string().nullable(),
  /** Published: learners and the public catalogue see it (a draft otherwise, seen by staff only). */
  active: z.boolean(),
  /** When a draft is scheduled to go live (ISO), or null. */
  publish_at: z.string().nullable(),
  popular: z.boolean(),
  position: z.number().int(),
  drip_mode: dripMode,
  drip_days: z.number().int(),
  /** Counts over the course's active lessons (what learners see). */
  lessons_count: z.number().int(),
  free_lessons_count: z.number().int(),
  /** Seconds of audio of the active lessons. */
  total_duration: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CourseItem = z.infer<typeof courseItem>;

export const courseListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(120).optional(),
  active: z.enum(["true", "false"]).optional(),
  popular: z.enum(["true", "false"]).optional(),
  target_language: targetLanguage.optional(),
  level: cefrLevel.optional(),
});
export type CourseListQuery = z.infer<typeof courseListQuery>;

export const publicCourseListQuery = courseListQuery.pick({
  page: true,
  pageSize: true,
  search: true,
  target_language: true,
  level: true,
});
export type PublicCourseListQuery = z.infer<typeof publicCourseListQuery>;

export const courseListResponse = envelope(z.object({ courses: z.array(courseItem), pagination }));
export type CourseListResponse = z.infer<typeof courseListResponse>;
export const courseResponse = envelope(z.object({ course: courseItem }));
export type CourseResponse = z.infer<typeof courseResponse>;

/** `/v1/courses/single/{id}` takes the id or the slug. */
export const courseRefParams = z.object({
  id: z
    .string()
    .max(200)
    .regex(/^[a-z0-9-]+$/i, "Expected a course id or slug"),
});

export const popularToggleBody = z
  .object({ popular: z.boolean().optional() })
  .nullish()
  .describe("Sets `popular` when given; toggles it when absent");

/** How far ahead a course may be scheduled to go live. */
export const PUBLISH_AHEAD_MAX_DAYS = 730;

/**
 * `POST /v1/courses/{id}/publish`: now (no `at`, null, or a time already past) or at a later time
 * (the course stays a draft until then). Refused 422 `COURSE_NOT_PUBLISHABLE` unless the course
 * has a title in the default locale and at least one published lesson with audio and a title in
 * the default locale; its `errors` name what is missing (see `PUBLISH_PROBLEMS`).
 */
export const coursePublishBody = z
  .object({
    at: z.iso
      .datetime({ offset: true })
      .refine((at) => Date.parse(at) < Date.now() + PUBLISH_AHEAD_MAX_DAYS * 86_400_000, {
        message: `At most ${PUBLISH_AHEAD_MAX_DAYS} days ahead`,
      })
      .nullish(),
  })
  .nullish()
  .meta({ examples: [{ at: null }, { at: "2030-09-01T08:00:00+02:00" }] });
export type CoursePublishBody = z.infer<typeof coursePublishBody>;

/**
 * The fields of a `COURSE_NOT_PUBLISHABLE` error: `title` and `lessons` say what is missing (an
 * English sentence); the others list the lessons that keep it from being publishable, by title:
 * drafts that would do once published, published ones without audio, published ones with audio
 * but no title in the default locale (named by their other title or their number).
 */
export const PUBLISH_PROBLEMS = [
  "title",
  "lessons",
  "draft_lessons",
  "lessons_without_audio",
  "lessons_without_title",
] as const;
export type PublishProblem = (typeof PUBLISH_PROBLEMS)[number];

export const courseDeleteQuery = z.object({ force: z.enum(["true", "false"]).default("false") });
export const courseDeleteResponse = envelope(
  z.object({ id: z.string(), deleted_lessons: z.number().int(), deleted_files: z.number().int() }),
);

// ---------------------------------------------------------------- learner progress

export const nextLesson = z.object({
  id: z.string(),
  position: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
  ...perLocaleText("title"),
  locked: z.boolean(),
  /** Set when the course's pace keeps it closed (then `locked` too): why, and when it opens. */
  drip: lessonDrip,
  last_position: z.number(),
});

export const courseOverview = z.object({
  course_id: z.string(),
  lessons_total: z.number().int(),
  lessons_done: z.number().int(),
  /** 0 to 100. */
  percent: z.number().int(),
  /** Per lesson: its whole duration when done, else the saved position. */
  seconds_listened: z.number().int(),
  total_duration: z.number().int(),
  /** First active lesson not done, in order; null when all are done. */
  next_lesson: nextLesson.nullable(),
  last_activity_at: z.string().nullable(),
});
export type CourseOverview = z.infer<typeof courseOverview>;
export const courseOverviewResponse = envelope(z.object({ overview: courseOverview }));

export const customerProgressQuery = z.object({
  /** Start of "this week" in the learner's time zone (ISO); Monday 00:00 UTC when absent. */
  week_start: z.iso.datetime({ offset: true }).optional(),
});
export const customerProgressResponse = envelope(
  z.object({
    courses: z.array(z.object({ course: courseItem, overview: courseOverview })),
    lessons_done_this_week: z.number().int(),
    week_start: z.string(),
  }),
);
export type CustomerProgressResponse = z.infer<typeof customerProgressResponse>;
