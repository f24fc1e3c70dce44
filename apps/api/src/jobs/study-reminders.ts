import type { HabitService } from "../modules/habit/service";
import { type Job, type JobOptions, startJob } from "./runner";

/**
 * Queues the study reminder mails every five minutes (started by server.ts); the outbox worker
 * sends them. Overlapping runs, in one process or many, queue one reminder per learner and local
 * date: each is claimed by inserting its (user, date) row in the transaction that queues it.
 */
export function startStudyReminders(
  opts: JobOptions & { habit: Pick<HabitService, "remindDue"> },
): Job<number> {
  const { habit, ...job } = opts;
  return startJob({
    ...job,
    name: "study-reminders",
    run: ({ now }) => habit.remindDue(now),
    idle: 0,
    report: (queued) => ({
      ...(queued ? { message: "study reminders queued", fields: { queued } } : {}),
      items: { queued },
    }),
    failed: "study reminders failed",
    everyMs: 5 * 60_000,
    firstMs: Math.min(30_000, opts.intervalMs ?? 30_000),
  });
}
