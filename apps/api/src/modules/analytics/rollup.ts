import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import {
  analyticsActive,
  analyticsDaily,
  analyticsLessonReach,
  analyticsLineGrades,
  analyticsState,
} from "../../db/schema/analytics";
import { customerPlans } from "../../db/schema/billing";
import { events, registrations } from "../../db/schema/events";
import { listeningMinutes } from "../../db/schema/habit";
import { lessonProgress, lessons } from "../../db/schema/lessons";
import { plans } from "../../db/schema/plans";
import { reviewCards, reviewLogs } from "../../db/schema/review";

/** The metrics the job writes per UTC day (week and month starts for the distinct active counts). */
export const DAILY_METRICS = [
  "active",
  "minutes",
  "lessons_done",
  "reviews",
  "new_paid",
  "churned",
  "mrr",
  "attendance",
] as const;

const STATE_KEY = "rollup";
/** A first run (or one after a long stop) looks back this far at most. */
const FIRST_LOOKBACK_DAYS = 400;
const DAY_MS = 86_400_000;

export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * One run of the analytics job, in one transaction that holds the watermark row: runs in several
 * processes take turns, and each adds what was written since the previous one. The days from the
 * watermark's day to today are computed again from the source rows of those days only (indexed
 * ranges), the funnel grows by the progress rows created since the watermark, and MRR is today's
 * snapshot. A page view then reads a few hundred rows, whatever the number of learners.
 */
export async function rollup(db: Db, now = new Date()): Promise<{ from: string; to: string }> {
  return db.transaction(async (tx) => {
    await tx
      .insert(analyticsState)
      .values({ key: STATE_KEY, rolledUntil: new Date(now.getTime() - FIRST_LOOKBACK_DAYS * DAY_MS) })
      .onConflictDoNothing();
    const [state] = await tx
      .select()
      .from(analyticsState)
      .where(sql`${analyticsState.key} = ${STATE_KEY}`)
      .for("update");
    const since = state?.rolledUntil ?? new Date(now.getTime() - FIRST_LOOKBACK_DAYS * DAY_MS);
    const from = utcDay(since);
    const start = new Date(`${from}T00:00:00Z`);
    const end = new Date(`${utcDay(now)}T00:00:00Z`).getTime() + DAY_MS;
    const until = new Date(end);

    await activeDays(tx, start, until);
    await recompute(tx, start, until);
    await growFunnel(tx, since, now);
    await growLineGrades(tx, since, now);
    await snapshotMrr(tx, now);
    await tx
      .update(analyticsState)
      .set({ rolledUntil: now })
      .where(sql`${analyticsState.key} = ${STATE_KEY}`);
    return { from, to: utcDay(now) };
  });
}

const dayOf = (column: unknown) => sql`(${column} at time zone 'UTC')::date`;

/** Learner-days with activity: a progress save, a minute of listening or a review. */
async function activeDays(tx: DbOrTx, start: Date, until: Date) {
  await tx.execute(sql`
    insert into ${analyticsActive} (day, user_id)
    select distinct ${dayOf(lessonProgress.updatedAt)}, ${lessonProgress.userId} from ${lessonProgress}
      where ${lessonProgress.updatedAt} >= ${start} and ${lessonProgress.updatedAt} < ${until}
    union
    select distinct ${dayOf(listeningMinutes.minute)}, ${listeningMinutes.userId} from ${listeningMinutes}
      where ${listeningMinutes.minute} >= ${start} and ${listeningMinutes.minute} < ${until}
    union
    select distinct ${dayOf(reviewLogs.reviewedAt)}, ${reviewLogs.userId} from ${reviewLogs}
      where ${reviewLogs.reviewedAt} >= ${start} and ${reviewLogs.reviewedAt} < ${until}
    on conflict do nothing`);
}

/** Each daily figure of the days in [start, until), written anew (a day with nothing has no row). */
async function recompute(tx: DbOrTx, start: Date, until: Date) {
  const from = utcDay(start);
  const to = utcDay(new Date(until.getTime() - DAY_MS));
  const weekStart = sql`date_trunc('week', ${from}::date)::date`;
  const monthStart = sql`date_trunc('month', ${from}::date)::date`;
  await tx.execute(sql`
    delete from ${analyticsDaily}
    where (${analyticsDaily.metric} not in ('mrr', 'active_week', 'active_month') and ${analyticsDaily.day} between ${from} and ${to})
       or (${analyticsDaily.metric} = 'active_week' and ${analyticsDaily.day} >= ${weekStart})
       or (${analyticsDaily.metric} = 'active_month' and ${analyticsDaily.day} >= ${monthStart})`);
  const insert = (select: ReturnType<typeof sql>) =>
    tx.execute(sql`insert into ${analyticsDaily} (day, metric, dim, value) ${select}`);
  await insert(sql`
    select day, 'active', '', count(*) from ${analyticsActive}
    where day between ${from} and ${to} group by day`);
  await insert(sql`
    select date_trunc('week', day)::date, 'active_week', '', count(distinct user_id) from ${analyticsActive}
    where day >= ${weekStart} group by 1`);
  await insert(sql`
    select date_trunc('month', day)::date, 'active_month', '', count(distinct user_id) from ${analyticsActive}
    where day >= ${monthStart} group by 1`);
  const done = sql`${lessonProgress.doneAt} >= ${start} and ${lessonProgress.doneAt} < ${until} and ${lessonProgress.done}`;
  await insert(sql`
    select ${dayOf(lessonProgress.doneAt)}, 'lessons_done', '', count(*) from ${lessonProgress}
    where ${done} group by 1`);
  // the seconds the players reported (habit's listening minutes: each counted once, whatever the
  // tabs, devices or retries), not the length of the lessons finished
  await insert(sql`
    select ${dayOf(listeningMinutes.minute)}, 'minutes', '', sum(${listeningMinutes.seconds}) / 60.0
    from ${listeningMinutes}
    where ${listeningMinutes.minute} >= ${start} and ${listeningMinutes.minute} < ${until} group by 1`);
  await insert(sql`
    select ${dayOf(reviewLogs.reviewedAt)}, 'reviews', '', count(*) from ${reviewLogs}
    where ${reviewLogs.reviewedAt} >= ${start} and ${reviewLogs.reviewedAt} < ${until} group by 1`);
  await insert(sql`
    select ${dayOf(customerPlans.startedAt)}, 'new_paid', '', count(*)
    from ${customerPlans} join ${plans} on ${plans.id} = ${customerPlans.planId}
    where ${plans.amount} > 0 and ${customerPlans.startedAt} >= ${start} and ${customerPlans.startedAt} < ${until}
    group by 1`);
  await insert(sql`
    select ${dayOf(customerPlans.cancelledAt)}, 'churned', '', count(*)
    from ${customerPlans} join ${plans} on ${plans.id} = ${customerPlans.planId}
    where ${plans.amount} > 0 and ${customerPlans.cancelledAt} >= ${start} and ${customerPlans.cancelledAt} < ${until}
    group by 1`);
  await insert(sql`
    select ${dayOf(events.startsAt)}, 'attendance', '', sum(${registrations.places})
    from ${registrations} join ${events} on ${events.id} = ${registrations.eventId}
    where ${registrations.status} = 'BOOKED' and ${events.startsAt} >= ${start} and ${events.startsAt} < ${until}
    group by 1`);
}

/** Learners who reached each lesson: the progress rows created since the last run, added. */
async function growFunnel(tx: DbOrTx, since: Date, now: Date) {
  await tx.execute(sql`
    insert into ${analyticsLessonReach} (lesson_id, course_id, learners)
    select ${lessonProgress.lessonId}, ${lessons.courseId}, count(*)
    from ${lessonProgress} join ${lessons} on ${lessons.id} = ${lessonProgress.lessonId}
    where ${lessonProgress.createdAt} > ${since} and ${lessonProgress.createdAt} <= ${now}
    group by 1, 2
    on conflict (lesson_id) do update set learners = ${analyticsLessonReach.learners} + excluded.learners`);
}

/**
 * Each line's grades (reviews and exercise results alike), failures ("Again"), "Hard" and learners
 * (a card's first grade: its state was New), grown by the log rows written since the last run (by
 * `created_at`: an offline grade sent today counts today, whatever time it was made). Word cards
 * (a word of a line, `review_cards.word`) are not the line's.
 */
async function growLineGrades(tx: DbOrTx, since: Date, now: Date) {
  await tx.execute(sql`
    insert into ${analyticsLineGrades} (cue_id, lesson_id, grades, again, hard, learners)
    select ${reviewCards.cueId}, ${reviewCards.lessonId}, count(*),
      count(*) filter (where ${reviewLogs.rating} = 1), count(*) filter (where ${reviewLogs.rating} = 2),
      count(*) filter (where ${reviewLogs.state} = 0)
    from ${reviewLogs} join ${reviewCards} on ${reviewCards.id} = ${reviewLogs.cardId}
    where ${reviewCards.word} is null and ${reviewLogs.createdAt} > ${since} and ${reviewLogs.createdAt} <= ${now}
    group by 1, 2
    on conflict (cue_id) do update set
      grades = ${analyticsLineGrades.grades} + excluded.grades,
      again = ${analyticsLineGrades.again} + excluded.again,
      hard = ${analyticsLineGrades.hard} + excluded.hard,
      learners = ${analyticsLineGrades.learners} + excluded.learners`);
}

/** Monthly recurring revenue in cents, over `liveSubscriptions`: a yearly plan as a twelfth. */
export const mrrCents = sql<number>`coalesce(sum(case when ${plans.interval} = 'year' then ${plans.amount} / 12.0 else ${plans.amount} end), 0)`;
/** The subscriptions that bring recurring revenue (customer plans joined to their plans). */
export const liveSubscriptions = sql`${customerPlans.status} = 'ACTIVE' and ${plans.amount} > 0 and ${plans.interval} <> 'once'`;

/** Monthly recurring revenue today, in cents: active paid subscriptions, a yearly plan as a twelfth. */
async function snapshotMrr(tx: DbOrTx, now: Date) {
  await tx.execute(sql`
    insert into ${analyticsDaily} (day, metric, dim, value)
    select ${utcDay(now)}, 'mrr', '', ${mrrCents}
    from ${customerPlans} join ${plans} on ${plans.id} = ${customerPlans.planId}
    where ${liveSubscriptions}
    on conflict (metric, day, dim) do update set value = excluded.value`);
}
