import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
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
