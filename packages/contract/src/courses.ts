import { z } from "zod";
import { envelope, pagination } from "./common";
import { isUrl } from "./validation";

/** Courses, lessons, learner progress and media uploads (issue 3). */

export const CEFR_LEVELS = ["A1", "A2", "B1", "B2", "C1", "C2"] as const;
export const cefrLevel = z.enum(CEFR_LEVELS);
export type CefrLevel = z.infer<typeof cefrLevel>;

/** Languages a course can teach (ISO 639-1). */
export const TARGET_LANGUAGES = ["en", "fr", "es", "de", "it", "pt", "nl", "ar", "zh", "ja", "ru"] as const;
export const targetLanguage = z.enum(TARGET_LANGUAGES);

/** Upload limit of spec §9: files of 100 MB or more are refused. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
export const UPLOAD_TOO_LARGE_MESSAGE = "File must be smaller than 100 MB";
export const UPLOAD_TOO_LARGE_MESSAGE_FR = "Le fichier doit faire moins de 100 Mo";
/** Default accepted type of the upload widget (spec §5). */
export const DEFAULT_UPLOAD_ACCEPT = "audio/mpeg";

// ---------------------------------------------------------------- transcripts

export interface TranscriptCue {
  /** Seconds from the start of the audio. */
  start: number;
  text: string;
}

/** A lesson line: its time span (seconds) and text, with its translations (a stored cue has an id). */
export interface TimedCue extends TranscriptCue {
  id?: string;
  end: number;
  translation_fr: string;
  translation_en: string;
}

const CUE_LINE = /^\s*\[(?:(\d{1,2}):)?(\d{1,3}):(\d{2})(?:\.(\d{1,3}))?\]\s*(.*)$/;

/**
 * Cues of a transcript written as `[mm:ss] sentence` lines (also `[h:mm:ss]` and
 * `[mm:ss.f]`). Lines without a time are appended to the previous cue; a transcript
 * without any time gives no cues (the web then shows it as plain text).
 */
export function parseTranscript(transcript: string | null | undefined): TranscriptCue[] {
  if (!transcript) return [];
  const cues: TranscriptCue[] = [];
  for (const line of transcript.split(/\r?\n/)) {
    const match = CUE_LINE.exec(line);
    if (match) {
      const [, h, m, s, frac, text] = match;
      const start = Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + (frac ? Number(`0.${frac}`) : 0);
      cues.push({ start, text: (text ?? "").trim() });
    } else if (cues.length > 0 && line.trim()) {
      const last = cues[cues.length - 1] as TranscriptCue;
      last.text = `${last.text} ${line.trim()}`.trim();
    }
  }
  return cues;
}

/**
 * Lines of a `[mm:ss] sentence` transcript with their ends: a line ends where the next starts,
 * the last one at the audio's end (or 5 s after its start when the duration is unknown).
 * Lines without text are dropped. The same rule migrated the stored transcripts (0011).
 */
export function transcriptToCues(
  transcript: string | null | undefined,
  duration?: number | null,
): TimedCue[] {
  const parsed = parseTranscript(transcript);
  return parsed
    .map((cue, i) => {
      const next = parsed[i + 1];
      const end = next ? next.start : duration && duration > cue.start ? duration : cue.start + 5;
      return { start: cue.start, end, text: cue.text, translation_fr: "", translation_en: "" };
    })
    .filter((cue) => cue.text.length > 0);
}

/** `[mm:ss]` or `[mm:ss.f]` (tenths kept when the time has them), `[h:mm:ss]` past an hour. */
export function transcriptTime(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const whole = Math.floor(tenths / 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const clock = h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
  return tenths % 10 === 0 ? clock : `${clock}.${tenths % 10}`;
}

/** The `[mm:ss] sentence` text of cues: what `parseTranscript` reads back. */
export function cuesToTranscript(cues: readonly TranscriptCue[]): string {
  return cues.map((cue) => `[${transcriptTime(cue.start)}] ${cue.text}`).join("\n");
}

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
  id: z.string(),
  slug: z.string(),
  title_fr: z.string(),
  title_en: z.string(),
  description_fr: z.string(),
  description_en: z.string(),
  target_language: z.string(),
  level: cefrLevel,
  /** Storage path of the cover (what the form sends back), or null. */
  cover: z.string().nullable(),
  /** Where the browser loads the cover from (public), or null. */
  cover_url: z.string().nullable(),
  active: z.boolean(),
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

export const courseDeleteQuery = z.object({ force: z.enum(["true", "false"]).default("false") });
export const courseDeleteResponse = envelope(
  z.object({ id: z.string(), deleted_lessons: z.number().int(), deleted_files: z.number().int() }),
);

// ---------------------------------------------------------------- lessons

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
    text: text(CUE_LIMITS.text).min(1, "Text is required"),
    translation_fr: text(CUE_LIMITS.text).default(""),
    translation_en: text(CUE_LIMITS.text).default(""),
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

export const lessonItem = z.object({
  id: z.string(),
  course_id: z.string(),
  position: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
  text_fr: z.string(),
  text_en: z.string(),
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
  drip: z.object({ reason: z.enum(["order", "date"]), opens_at: z.string().nullable() }).nullable(),
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

// ---------------------------------------------------------------- learner progress

export const nextLesson = z.object({
  id: z.string(),
  position: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
  locked: z.boolean(),
  /** Set when the course's pace keeps it closed (then `locked` too): why, and when it opens. */
  drip: z.object({ reason: z.enum(["order", "date"]), opens_at: z.string().nullable() }).nullable(),
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

// ---------------------------------------------------------------- media

export const MEDIA_TYPES = ["audio", "image"] as const;
export const mediaType = z.enum(MEDIA_TYPES);
export type MediaType = z.infer<typeof mediaType>;

export const uploadResponse = envelope(
  z.object({
    /** Storage path to send back in `audio` (lesson) or `cover` (course). */
    file_path: z.string(),
    /** Whole seconds, audio only. The spec's client stores `file_path:audioDuration`. */
    audioDuration: z.number().int().optional(),
    media: z.object({
      id: z.string(),
      type: mediaType,
      mime_type: z.string(),
      size: z.number().int(),
    }),
  }),
);
export type UploadResponse = z.infer<typeof uploadResponse>;

/** The signed audio URL's query: user ("anon" for a visitor), expiry (Unix seconds), storage key, HMAC. */
export const audioQuery = z.object({
  u: z.string().max(64),
  exp: z.coerce.number().int(),
  k: z.string().max(256),
  sig: z.string().max(128),
});
