import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { users } from "./users";

/**
 * A learner's study settings: daily goal, time zone (the browser's by default, IANA name) and the
 * hour of the study reminder in that time zone (null: no reminder). One row per learner, made
 * on first use.
 */
export const studySettings = pgTable(
  "study_settings",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    dailyGoalMinutes: smallint("daily_goal_minutes").notNull().default(10),
    timeZone: text("time_zone").notNull().default("Europe/Paris"),
    reminderHour: smallint("reminder_hour"),
    /** Chosen at the welcome: the language learned (ISO 639-1) and the level ("starting" or A1–C1). */
    learningLanguage: text("learning_language"),
    level: text("level"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("study_settings_goal", sql`${t.dailyGoalMinutes} between 1 and 240`),
    check("study_settings_hour", sql`${t.reminderHour} is null or ${t.reminderHour} between 0 and 23`),
    index("study_settings_reminder_idx").on(t.reminderHour).where(sql`${t.reminderHour} is not null`),
  ],
);

/**
 * Seconds listened by a learner to a lesson within one minute of wall-clock time (UTC, floored).
 * The player reports the seconds it played in each minute; a report sent again (retry, second
 * tab, second device) keeps the larger value, so nothing is counted twice.
 */
export const listeningMinutes = pgTable(
  "listening_minutes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    seconds: smallint("seconds").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.minute, t.lessonId] }),
    // the analytics roll-up reads a range of days across every learner
    index("listening_minutes_minute_idx").on(t.minute),
    check("listening_minutes_seconds", sql`${t.seconds} between 1 and 60`),
  ],
);

/** One study reminder per learner and local date: the claim that makes a reminder unique. */
export const studyReminders = pgTable(
  "study_reminders",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    localDate: date("local_date").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.localDate] })],
);

/**
 * A finished study session of review or exercises: its items, how many were right, its seconds
 * (exercises count them toward the goal; review counts its lines instead). A session of at least
 * STUDY_UNIT_ITEMS items makes the day a study day. The id is the client's, so a session sent
 * again (offline queue, retry) counts once.
 */
export const studySessions = pgTable(
  "study_sessions",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    items: integer("items").notNull(),
    correct: integer("correct").notNull(),
    seconds: integer("seconds").notNull().default(0),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("study_sessions_user_finished_idx").on(t.userId, t.finishedAt),
    check("study_sessions_kind", sql`${t.kind} in ('review', 'exercise')`),
    check("study_sessions_counts", sql`${t.items} >= 0 and ${t.correct} between 0 and ${t.items}`),
  ],
);
