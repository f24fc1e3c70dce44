import { z } from "zod";
import { envelope } from "./common";
import { perLocale, perLocaleOptional, perLocaleText } from "./localized";
import { isUrl } from "./validation";

/** Lessons, their lines and the learner's progress through them (issue 3). */

const text = (max: number) => z.string().trim().max(max);

export const lessonLink = z.object({
  label: text(200).min(1, "Label is required"),
  url: text(2048).refine((v) => isUrl(v), "Please enter a valid URL"),
});
export type LessonLink = z.infer<typeof lessonLink>;
export const lessonLinks = z.array(lessonLink).max(30);

/**
 * Audio of a lesson as the spec's client stores it: the upload's `file_path`, optionally
 * followed by `:duration`. The server takes the duration it measured at upload time.
 */
export const lessonAudioField = z
  .string()
  .trim()
  .max(320)
  .regex(/^[a-z]+\/[A-Za-z0-9._-]+(?::\d+(?:\.\d+)?)?$/, "Expected an uploaded file path");

const lessonFields = {
  title_fr: text(200).min(1, "Title is required"),
  title_en: text(200).min(1, "Title is required"),
  text_fr: text(50_000),
  text_en: text(50_000),
  ...perLocale("title", text(200)),
  ...perLocale("text", text(50_000)),
  audio: lessonAudioField.nullable(),
  transcript: text(100_000),
  links: lessonLinks,
  free: z.boolean(),
  active: z.boolean(),
  /** Appended at the end when absent. */
  position: z.number().int().min(0).max(100_000).optional(),
};

export const lessonBody = z.object({
  ...lessonFields,
  text_fr: lessonFields.text_fr.default(""),
  text_en: lessonFields.text_en.default(""),
  ...perLocale("title", text(200).default("")),
  ...perLocale("text", text(50_000).default("")),
  audio: lessonFields.audio.default(null),
  transcript: lessonFields.transcript.default(""),
  links: lessonFields.links.default([]),
  free: lessonFields.free.default(false),
  active: lessonFields.active.default(true),
});
export type LessonBody = z.infer<typeof lessonBody>;
/** `PUT …/lessons/{id}`: any subset of the fields; an omitted field keeps its stored value. */
export const lessonUpdateBody = z.object(lessonFields).partial();
export type LessonUpdateBody = z.infer<typeof lessonUpdateBody>;

/** `update-by-column`: one whitelisted column at a time. */
export const lessonColumnBody = z.discriminatedUnion("column", [
  z.object({ column: z.literal("position"), value: z.number().int().min(0).max(100_000) }),
  z.object({ column: z.literal("active"), value: z.boolean() }),
  z.object({ column: z.literal("free"), value: z.boolean() }),
]);
export type LessonColumnBody = z.infer<typeof lessonColumnBody>;

export const lessonLinksBody = z.object({ links: lessonLinks });

/** A stored lesson line, as learners and staff receive it. */
export const lessonCue = z
  .object({
    id: z.string(),
    /** Seconds from the start of the audio. */
    start: z.number(),
    end: z.number(),
    /** In the language taught. */
    text: z.string(),
    translation_fr: z.string(),
    translation_en: z.string(),
    ...perLocaleText("translation"),
  })
  .meta({ id: "LessonCue" });
export type LessonCue = z.infer<typeof lessonCue>;

/** Lines a lesson may have, and how long one may be. */
export const CUE_LIMITS = { perLesson: 1000, text: 2000 } as const;

export const lessonCueInput = z
  .object({
    /** A cue of this lesson to keep (its review cards stay); absent for a new line. */
    id: z.uuid().optional(),
    start: z.number().min(0).max(86_400),
    end: z.number().min(0).max(86_400),
    /** Empty for a segment whose text is still to be typed (lines proposed at the audio's pauses). */
    text: text(CUE_LIMITS.text),
    translation_fr: text(CUE_LIMITS.text).default(""),
    translation_en: text(CUE_LIMITS.text).default(""),
    /** Left out: a kept line keeps the text it has in that locale (a client that knows only FR and EN). */
    ...perLocaleOptional("translation", text(CUE_LIMITS.text)),
  })
  .refine((c) => c.end > c.start, { message: "A line must end after it starts", path: ["end"] });
export type LessonCueInput = z.input<typeof lessonCueInput>;

/** `PUT …/lessons/{id}/cues`: the lesson's whole list of lines, in order of time. */
export const lessonCuesBody = z
  .object({ cues: z.array(lessonCueInput).max(CUE_LIMITS.perLesson) })
  .refine((b) => b.cues.every((c, i) => i === 0 || c.start >= (b.cues[i - 1]?.start ?? 0)), {
    message: "Lines must be in order of time",
    path: ["cues"],
  })
  .meta({
    examples: [
      {
        cues: [
          { start: 0, end: 2.5, text: "Hola.", translation_fr: "Bonjour.", translation_en: "Hello." },
          {
            start: 2.5,
            end: 5,
            text: "Buenos días.",
            translation_fr: "Bonjour (le matin).",
            translation_en: "Good morning.",
          },
        ],
      },
    ],
  });
export type LessonCuesBody = z.infer<typeof lessonCuesBody>;
export const lessonCuesResponse = envelope(z.object({ cues: z.array(lessonCue) }));
export type LessonCuesResponse = z.infer<typeof lessonCuesResponse>;

export const lessonProgress = z.object({
  done: z.boolean(),
  done_at: z.string().nullable(),
  /** Seconds. */
  last_position: z.number(),
  play_count: z.number().int(),
  updated_at: z.string(),
});
export type LessonProgress = z.infer<typeof lessonProgress>;

export const lessonAudio = z.object({
  /** Signed, short-lived URL for `<audio src>` (no Authorization header needed). */
  url: z.string(),
  /** ISO time after which `url` is refused: fetch the lesson again for a new one. */
  expires_at: z.string(),
  duration: z.number().int().nullable(),
  mime_type: z.string(),
});

/** Why the course's pace keeps a lesson closed for a learner, and when it opens (null: it does not). */
export const lessonDrip = z
  .object({ reason: z.enum(["order", "date"]), opens_at: z.string().nullable() })
  .nullable();

export const lessonItem = z.object({
  id: z.string(),
  course_id: z.string(),
  position: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
  text_fr: z.string(),
  text_en: z.string(),
  ...perLocaleText("title"),
  ...perLocaleText("text"),
  free: z.boolean(),
  active: z.boolean(),
  /**
   * True when the lesson does not open for the caller (their plan, or the course's pace): no
   * audio, transcript nor links.
   */
  locked: z.boolean(),
  /**
   * Why the course's pace keeps the lesson closed for this learner, when it does (`locked` is
   * then true): the previous lesson is not done yet, or the lesson opens on a date (null when the
   * learner has not started the course: it opens `drip_days` × its rank after they start).
   */
  drip: lessonDrip,
  /** Seconds of audio, or null when the lesson has none. */
  duration: z.number().int().nullable(),
  audio: lessonAudio.nullable(),
  /**
   * Plain text, or the lines as `[mm:ss] sentence` when the lesson has cues (null when locked).
   * Writing a timed transcript replaces the cues (lines whose text is unchanged keep their id).
   */
  transcript: z.string().nullable(),
  /** The lesson's lines with their translations (empty when locked). */
  cues: z.array(lessonCue),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  /** The caller's progress (null for visitors and lessons never opened). */
  progress: lessonProgress.nullable(),
  /** Staff only: `path:duration` as stored, for the lesson form. */
  audio_path: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LessonItem = z.infer<typeof lessonItem>;

export const courseIdParams = z.object({ courseId: z.uuid() });
export const lessonParams = z.object({ courseId: z.uuid(), id: z.uuid() });

export const lessonListResponse = envelope(
  z.object({
    lessons: z.array(lessonItem),
    /** "all" for staff and premium learners, "free" otherwise: the web shows the upgrade call. */
    access: z.enum(["all", "free"]),
  }),
);
export type LessonListResponse = z.infer<typeof lessonListResponse>;
export const lessonResponse = envelope(z.object({ lesson: lessonItem }));
export type LessonResponse = z.infer<typeof lessonResponse>;
export const lessonDeleteResponse = envelope(z.object({ id: z.string() }));

export const doneCustomerBody = z
  .object({
    lesson_id: z.uuid(),
    /** true marks done, false undoes it; absent leaves it as it is. */
    done: z.boolean().optional(),
    /** Seconds into the audio where the learner is (resume point). */
    last_position: z.number().min(0).max(86_400).optional(),
    /** True when playback starts: adds one to play_count. */
    played: z.boolean().optional(),
  })
  .refine((b) => b.done !== undefined || b.last_position !== undefined || b.played !== undefined, {
    message: "Send done, last_position or played",
    path: ["done"],
  });
export type DoneCustomerBody = z.infer<typeof doneCustomerBody>;
/**
 * `Idempotency-Key` of a progress call (a UUID the client makes per call and keeps when it
 * queues the call offline): the same key sent again is answered without being applied twice.
 */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;
export const doneCustomerHeaders = z.looseObject({
  "idempotency-key": z
    .string()
    .regex(IDEMPOTENCY_KEY, "8 to 128 letters, digits, - or _")
    .optional()
    .describe("Makes a retry of this call safe: a key already used returns the progress unchanged."),
});
export const doneCustomerResponse = envelope(
  z.object({
    progress: lessonProgress.extend({ lesson_id: z.string() }),
    /** The course's certificate when this call (or an earlier one) finished every lesson. */
    certificate: z.object({ id: z.string(), code: z.string() }).nullable().optional(),
  }),
);
