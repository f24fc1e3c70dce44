import {
  type HabitDay,
  type HabitSettings,
  type HabitSettingsBody,
  type HabitSummary,
  type LearnerLevel,
  type ListeningBody,
  langPrefix,
  REVIEW_LINE_SECONDS,
  STUDY_UNIT_ITEMS,
  type StudySessionBody,
  toLocale,
} from "@parlons/contract";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { listeningMinutes, studyReminders, studySessions, studySettings } from "../../db/schema/habit";
import { type Clock, systemClock } from "../../lib/clock";
import { validationFailed } from "../../lib/errors";
import { lessonsDonePerDay } from "../lessons/queries";
import type { MailOutbox } from "../mail/outbox";
import type { MailPreferencesService } from "../mail/preferences-service";
import type { TransactionalMails } from "../mail/transactional";
import type { PushService } from "../push/service";
import type { ReviewService } from "../review/service";
import type { UserService } from "../users/service";
import { streakLine, studyPush } from "./reminder-text";
import { addDays, streakOf } from "./streak";

const DEFAULTS: HabitSettings = {
  goal_minutes: 10,
  time_zone: "Europe/Paris",
  reminder_hour: null,
  learning_language: null,
  level: null,
};
/** How far back a listening report is accepted (an offline queue sent late), and how far ahead (clock skew). */
const REPORT_MAX_AGE_MS = 30 * 86_400_000;
const REPORT_MAX_AHEAD_MS = 5 * 60_000;
/** Days read to compute a streak: longer streaks show as this many. */
const HISTORY_DAYS = 400;

/** The date (YYYY-MM-DD) of an instant in a time zone. */
function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
}

/**
 * The daily habit: study settings (goal, time zone, reminder hour), seconds listened per minute
 * of wall-clock time, the summary of days and the streak, and the study reminders. Lines reviewed
 * come from the review module's log; the reminder mail goes through the transactional outbox
 * with the mail module's unsubscribe link and headers.
 */
export function createHabitService(deps: {
  db: Db;
  users: Pick<UserService, "findById">;
  review: Pick<ReviewService, "linesPerDay" | "reviewedSince">;
  preferences: Pick<MailPreferencesService, "isSubscribed" | "unsubscribeParts" | "withUnsubscribeLink">;
  outbox: MailOutbox;
  mails: TransactionalMails;
  push: Pick<PushService, "has" | "send">;
  publicUrl: string;
  /** The time now (lib/clock.ts): today, the streak and the reminders' hour follow it. */
  clock?: Clock;
}) {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  /** The learner's settings, and whether they were ever saved (the welcome done). */
  async function savedSettings(userId: string): Promise<{ settings: HabitSettings; saved: boolean }> {
    const [row] = await db.select().from(studySettings).where(eq(studySettings.userId, userId));
    if (!row) return { settings: DEFAULTS, saved: false };
    return {
      settings: {
        goal_minutes: row.dailyGoalMinutes,
        time_zone: row.timeZone,
        reminder_hour: row.reminderHour,
        learning_language: row.learningLanguage,
        level: row.level as LearnerLevel | null,
      },
      // the time zone alone is saved by the dashboard on its own (the browser's): only a choice of
      // the learner's (the welcome's language or level, a goal, a reminder) says they were welcomed
      saved:
        row.learningLanguage !== null ||
        row.level !== null ||
        row.reminderHour !== null ||
        row.dailyGoalMinutes !== DEFAULTS.goal_minutes,
    };
  }
  const settingsOf = async (userId: string) => (await savedSettings(userId)).settings;

  /**
   * Per local date since `since`: units finished (lessons done, sessions of at least
   * STUDY_UNIT_ITEMS items) and the seconds of exercise sessions (toward the goal).
   */
  async function unitsPerDay(
    userId: string,
    timeZone: string,
    since: Date,
  ): Promise<{ units: Map<string, number>; exerciseSeconds: Map<string, number> }> {
    const sessionDay = sql<string>`to_char(${studySessions.finishedAt} at time zone ${timeZone}, 'YYYY-MM-DD')`;
    const [lessons, sessions] = await Promise.all([
      lessonsDonePerDay(db, userId, timeZone, since),
      db
        .select({
          day: sessionDay,
          n: sql<number>`count(*) filter (where ${studySessions.items} >= ${STUDY_UNIT_ITEMS})`.mapWith(
            Number,
          ),
          seconds:
            sql<number>`coalesce(sum(${studySessions.seconds}) filter (where ${studySessions.kind} = 'exercise'), 0)`.mapWith(
              Number,
            ),
        })
        .from(studySessions)
        .where(and(eq(studySessions.userId, userId), gte(studySessions.finishedAt, since)))
        .groupBy(sql`1`),
    ]);
    const units = new Map<string, number>();
    for (const r of [...lessons, ...sessions]) units.set(r.day, (units.get(r.day) ?? 0) + r.n);
    return { units, exerciseSeconds: new Map(sessions.map((r) => [r.day, r.seconds])) };
  }

  /** Seconds listened per local date since `since`: each wall-clock minute counts 60 seconds at most. */
  async function secondsPerDay(userId: string, timeZone: string, since: Date): Promise<Map<string, number>> {
    const perMinute = db
      .select({
        minute: listeningMinutes.minute,
        seconds: sql<number>`least(60, sum(${listeningMinutes.seconds}))`.as("seconds"),
      })
      .from(listeningMinutes)
      .where(and(eq(listeningMinutes.userId, userId), gte(listeningMinutes.minute, since)))
      .groupBy(listeningMinutes.minute)
      .as("per_minute");
    const day = sql<string>`to_char(${perMinute.minute} at time zone ${timeZone}, 'YYYY-MM-DD')`;
    const rows = await db
      .select({ day, seconds: sql<number>`sum(${perMinute.seconds})`.mapWith(Number) })
      .from(perMinute)
      .groupBy(sql`1`);
    return new Map(rows.map((r) => [r.day, r.seconds]));
  }

  /** Today's progress toward the goal, the streak with the weekly freeze, and the last seven days. */
  async function summary(userId: string, now = clock()): Promise<HabitSummary> {
    const { settings, saved } = await savedSettings(userId);
    const tz = settings.time_zone;
    const since = new Date(now.getTime() - (HISTORY_DAYS + 2) * 86_400_000);
    const [seconds, lines, { units, exerciseSeconds }] = await Promise.all([
      secondsPerDay(userId, tz, since),
      deps.review.linesPerDay(userId, tz, since),
      unitsPerDay(userId, tz, since),
    ]);
    const goalSeconds = settings.goal_minutes * 60;
    // minutes of study: listening, review (per line graded) and exercises
    const progressOf = (date: string) =>
      (seconds.get(date) ?? 0) +
      (lines.get(date) ?? 0) * REVIEW_LINE_SECONDS +
      (exerciseSeconds.get(date) ?? 0);
    const reached = (date: string) => progressOf(date) >= goalSeconds;
    const studied = (date: string) => reached(date) || (units.get(date) ?? 0) > 0;
    const today = localDate(now, tz);
    const streak = streakOf(studied, today, HISTORY_DAYS);
    const dayOf = (date: string): HabitDay => {
      const s = seconds.get(date) ?? 0;
      return {
        date,
        seconds: s,
        minutes: Math.floor(s / 60),
        lines: lines.get(date) ?? 0,
        goal_reached: reached(date),
        frozen: streak.frozen.has(date),
        studied: studied(date),
        units: units.get(date) ?? 0,
      };
    };
    return {
      settings,
      today: { ...dayOf(today), goal_seconds: goalSeconds, progress_seconds: progressOf(today) },
      streak: { current: streak.current, freeze_available: streak.freezeAvailable },
      week: Array.from({ length: 7 }, (_, i) => dayOf(addDays(today, i - 6))),
      welcomed: saved,
    };
  }

  return {
    settingsOf,

    async updateSettings(userId: string, body: HabitSettingsBody): Promise<HabitSettings> {
      const current = await settingsOf(userId);
      const next = { ...current, ...body };
      const values = {
        dailyGoalMinutes: next.goal_minutes,
        timeZone: next.time_zone,
        reminderHour: next.reminder_hour ?? null,
        learningLanguage: next.learning_language ?? null,
        level: next.level ?? null,
      };
      await db
        .insert(studySettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: studySettings.userId, set: { ...values, updatedAt: new Date() } });
      return settingsOf(userId);
    },

    /**
     * Records seconds played per (lesson, minute). A report sent again keeps the larger value, so
     * retries, a second tab or a second device never add up; minutes of one lesson reported twice
     * in a batch are merged first.
     */
    async recordListening(userId: string, body: ListeningBody, now = clock()): Promise<number> {
      const errors: Record<string, string[]> = {};
      const merged = new Map<string, { lessonId: string; minute: Date; seconds: number }>();
      body.items.forEach((item, index) => {
        const at = new Date(item.minute);
        const ms = at.getTime();
        if (ms > now.getTime() + REPORT_MAX_AHEAD_MS || ms < now.getTime() - REPORT_MAX_AGE_MS) {
          errors[`items.${index}.minute`] = ["The minute must be within the last 30 days, not in the future"];
          return;
        }
        const minute = new Date(Math.floor(ms / 60_000) * 60_000);
        const key = `${item.lesson_id}|${minute.toISOString()}`;
        const seen = merged.get(key);
        if (!seen || seen.seconds < item.seconds) {
          merged.set(key, { lessonId: item.lesson_id, minute, seconds: item.seconds });
        }
      });
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      const rows = [...merged.values()].map((r) => ({ userId, ...r }));
      await db
        .insert(listeningMinutes)
        .values(rows)
        .onConflictDoUpdate({
          target: [listeningMinutes.userId, listeningMinutes.minute, listeningMinutes.lessonId],
          set: {
            seconds: sql`greatest(${listeningMinutes.seconds}, excluded.seconds)`,
            updatedAt: new Date(),
          },
        });
      return rows.length;
    },

    summary,

    /**
     * Records a finished review or exercise session (issue 23's exercises call this too). The
     * client's id makes it count once; a session of at least STUDY_UNIT_ITEMS items makes the
     * day a study day, an exercise session's seconds count toward the goal.
     */
    async recordSession(
      userId: string,
      body: Omit<StudySessionBody, "seconds"> & { seconds?: number },
      now = clock(),
    ): Promise<boolean> {
      const finishedAt = new Date(body.finished_at);
      const ms = finishedAt.getTime();
      if (ms > now.getTime() + REPORT_MAX_AHEAD_MS || ms < now.getTime() - REPORT_MAX_AGE_MS) {
        throw validationFailed({
          finished_at: ["The end must be within the last 30 days, not in the future"],
        });
      }
      const rows = await db
        .insert(studySessions)
        .values({
          id: body.id,
          userId,
          kind: body.kind,
          items: body.items,
          correct: body.correct,
          seconds: body.seconds ?? 0,
          finishedAt,
        })
        .onConflictDoNothing()
        .returning({ id: studySessions.id, userId: studySessions.userId });
      return rows.length > 0;
    },

    /**
     * Queues the study reminders due at `now`: learners whose reminder hour it is in their time
     * zone, who have not studied today (no minute listened, no line reviewed), accept study
     * reminders and were not reminded today. The (user, local date) row is inserted in the
     * transaction that queues the mail, whose outbox key is the same pair: however many runs
     * or processes overlap or restart, one reminder per learner and day; the outbox worker's
     * lease then sends it once.
     */
    async remindDue(now = clock()): Promise<number> {
      const at = sql`${now.toISOString()}::timestamptz`;
      const local = sql`(${at} at time zone ${studySettings.timeZone})`;
      const dayStart = sql`(date_trunc('day', ${local}) at time zone ${studySettings.timeZone})`;
      const due = await db
        .select({
          userId: studySettings.userId,
          localDate: sql<string>`to_char(${local}, 'YYYY-MM-DD')`,
          dayStart: sql<string>`to_char(${dayStart} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
        })
        .from(studySettings)
        .where(
          and(
            sql`${studySettings.reminderHour} is not null`,
            sql`${studySettings.reminderHour} = extract(hour from ${local})`,
            sql`not exists (select 1 from ${studyReminders} where ${studyReminders.userId} = ${studySettings.userId} and ${studyReminders.localDate} = ${local}::date)`,
            sql`not exists (select 1 from ${listeningMinutes} where ${listeningMinutes.userId} = ${studySettings.userId} and ${listeningMinutes.minute} >= ${dayStart})`,
          ),
        )
        .limit(500);
      let queued = 0;
      for (const candidate of due) {
        const user = await deps.users.findById(candidate.userId);
        if (user?.status !== "ACTIVE") continue;
        // by mail to those who keep the reminder mails, by notification to their subscribed browsers
        const byMail = await deps.preferences.isSubscribed(user.id, "study_reminders");
        const byPush = await deps.push.has(user.id);
        if (!byMail && !byPush) continue;
        if (await deps.review.reviewedSince(user.id, new Date(candidate.dayStart))) continue;
        const { streak } = await summary(user.id, now);
        const sent = await db.transaction(async (tx) => {
          const [claimed] = await tx
            .insert(studyReminders)
            .values({ userId: user.id, localDate: candidate.localDate })
            .onConflictDoNothing()
            .returning();
          if (!claimed) return false;
          if (!byMail) return true;
          const lang = user.speak;
          const site = `${deps.publicUrl}${langPrefix(toLocale(lang))}`;
          const details = streakLine(streak.current, toLocale(lang));
          const rendered = await deps.mails.compose(
            "study-reminder",
            { email: user.email, fullName: user.fullName, speak: lang },
            `${site}/dashboard`,
            { details, tx },
          );
          const parts = deps.preferences.unsubscribeParts(user.id, "study_reminders", lang);
          const mail = deps.preferences.withUnsubscribeLink(rendered, parts.pageUrl, lang, "study_reminders");
          return deps.outbox.enqueue(
            {
              key: `study-reminder:${user.id}:${candidate.localDate}`,
              userId: user.id,
              to: user.email,
              ...mail,
              headers: parts.headers,
            },
            tx,
          );
        });
        if (!sent) continue;
        queued += 1;
        if (byPush) await deps.push.send(user.id, studyPush(toLocale(user.speak), streak.current));
      }
      return queued;
    },
  };
}
export type HabitService = ReturnType<typeof createHabitService>;
