import { z } from "zod";
import { speak } from "./auth";
import { envelope } from "./common";
import { targetLanguage } from "./courses";
import {
  DAILY_GOAL_MAX,
  DAILY_GOAL_MIN,
  isTimeZone,
  LEARNER_LEVELS,
  STUDY_SESSION_KINDS,
} from "./habit-rules";

/** The daily habit: minutes listened and lines reviewed per day, a daily goal, a streak, reminders. */

export const habitSettings = z.object({
  /** Minutes of study a day (listening, plus REVIEW_LINE_SECONDS per line reviewed). */
  goal_minutes: z.number().int(),
  /** IANA time zone the days and the reminder hour are counted in. */
  time_zone: z.string(),
  /** Hour (0–23, learner's time zone) of the study reminder mail; null: no reminder. */
  reminder_hour: z.number().int().nullable(),
  /** Chosen at the welcome (null before): the language learned and the level. */
  learning_language: z.string().nullable(),
  level: z.enum(LEARNER_LEVELS).nullable(),
});
export type HabitSettings = z.infer<typeof habitSettings>;

export const habitSettingsBody = z
  .object({
    goal_minutes: z.number().int().min(DAILY_GOAL_MIN).max(DAILY_GOAL_MAX).optional(),
    time_zone: z
      .string()
      .max(64)
      .refine(isTimeZone, { message: "Unknown time zone (use an IANA name such as Europe/Paris)" })
      .optional(),
    reminder_hour: z.number().int().min(0).max(23).nullable().optional(),
    learning_language: targetLanguage.nullable().optional(),
    level: z.enum(LEARNER_LEVELS).nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: "Nothing to change" });
export type HabitSettingsBody = z.infer<typeof habitSettingsBody>;

/** One day of study in the learner's time zone. */
export const habitDay = z.object({
  /** YYYY-MM-DD in the learner's time zone. */
  date: z.string(),
  /** Whole minutes listened (each minute of wall-clock time counts 60 seconds at most). */
  minutes: z.number().int(),
  seconds: z.number().int(),
  /** Lines reviewed (grades given). */
  lines: z.number().int(),
  goal_reached: z.boolean(),
  /** A missed day covered by the week's freeze. */
  frozen: z.boolean(),
  /**
   * A study day: the goal reached, or a unit finished (a lesson, or a review or exercise session
   * of at least STUDY_UNIT_ITEMS items). The streak counts these.
   */
  studied: z.boolean(),
  /** Lessons finished and sessions of at least STUDY_UNIT_ITEMS items that day. */
  units: z.number().int(),
});
export type HabitDay = z.infer<typeof habitDay>;

export const habitSummary = z
  .object({
    settings: habitSettings,
    today: habitDay.extend({
      /** Study seconds counted toward the goal today, and the goal in seconds. */
      goal_seconds: z.number().int(),
      progress_seconds: z.number().int(),
    }),
    streak: z.object({
      /** Days in a row with the goal reached, today included once reached. */
      current: z.number().int(),
      /** The freeze of the current ISO week is still unused. */
      freeze_available: z.boolean(),
    }),
    /** The last seven days, oldest first, today last. */
    week: z.array(habitDay),
    /** The learner went through the welcome (or saved study settings): false on a first visit. */
    welcomed: z.boolean(),
  })
  .meta({ id: "HabitSummary" });
export type HabitSummary = z.infer<typeof habitSummary>;
export const habitSummaryResponse = envelope(habitSummary);

/** Seconds played in one minute of wall-clock time: sent again with a larger value as it grows. */
export const listeningItem = z.object({
  lesson_id: z.uuid(),
  /** The minute (ISO, seconds ignored) the seconds were played in. */
  minute: z.iso.datetime({ offset: true }),
  seconds: z.number().int().min(1).max(60),
});
export const listeningBody = z.object({ items: z.array(listeningItem).min(1).max(120) });
export type ListeningBody = z.infer<typeof listeningBody>;
export const listeningResponse = envelope(z.object({ recorded: z.number().int() }));

/** A finished review or exercise session, sent once it ends (again from an offline queue: counted once). */
export const studySessionBody = z
  .object({
    /** The client's id of the session: the same id sent again is not counted twice. */
    id: z.uuid(),
    kind: z.enum(STUDY_SESSION_KINDS),
    items: z.number().int().min(1).max(10_000),
    /** Items answered right (review: graded Good or Easy). */
    correct: z.number().int().min(0).max(10_000),
    /** Seconds spent (exercises count them toward the goal; review counts its lines). */
    seconds: z.number().int().min(0).max(86_400).default(0),
    finished_at: z.iso.datetime({ offset: true }),
  })
  .refine((b) => b.correct <= b.items, { message: "More right answers than items", path: ["correct"] });
export type StudySessionBody = z.input<typeof studySessionBody>;
export const studySessionResponse = envelope(
  z.object({
    /** False when this session id was already recorded. */
    recorded: z.boolean(),
    summary: habitSummary,
  }),
);
export type StudySessionResponse = z.infer<typeof studySessionResponse>;

// ---------------------------------------------------------------- mail preferences

/**
 * Mail a learner may refuse: study reminders, news (bulk mail campaigns) and the alert of a
 * sign-in from a new device. Other account mails, receipts, booking confirmations and event
 * reminders are transactional: always sent.
 */
export const MAIL_KINDS = ["study_reminders", "news", "new_device"] as const;
export const mailKind = z.enum(MAIL_KINDS);
export type MailKind = z.infer<typeof mailKind>;

export const mailPreferences = z.object({
  items: z.array(z.object({ kind: mailKind, subscribed: z.boolean() })),
});
export type MailPreferences = z.infer<typeof mailPreferences>;
export const mailPreferencesResponse = envelope(mailPreferences);
export const mailPreferencesBody = z.object({
  study_reminders: z.boolean().optional(),
  news: z.boolean().optional(),
  new_device: z.boolean().optional(),
});
export type MailPreferencesBody = z.infer<typeof mailPreferencesBody>;

export const unsubscribeParams = z.object({ token: z.string().min(1).max(200) });
export const unsubscribeStatus = z.object({
  kind: mailKind,
  /** The address, partly hidden (c•••@example.com). */
  email: z.string(),
  lang: speak,
  subscribed: z.boolean(),
});
export type UnsubscribeStatus = z.infer<typeof unsubscribeStatus>;
export const unsubscribeResponse = envelope(unsubscribeStatus);
