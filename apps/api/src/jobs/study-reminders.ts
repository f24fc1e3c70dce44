import type { HabitService } from "../modules/habit/service";
import { type QueueingJob, type QueueingJobOptions, startQueueingJob } from "./queueing-job";

/**
 * Queues the study reminder mails every few minutes (started by server.ts); the outbox worker
 * sends them. Overlapping runs, in one process or many, queue one reminder per learner and local
 * date: each is claimed by inserting its (user, date) row in the transaction that queues it.
 */
export function startStudyReminders(
  opts: QueueingJobOptions & { habit: Pick<HabitService, "remindDue"> },
): QueueingJob {
  const { habit, ...job } = opts;
  return startQueueingJob({
    ...job,
    job: "study-reminders",
    what: "study reminders",
    queue: (now) => habit.remindDue(now),
    firstRunMs: Math.min(30_000, opts.intervalMs ?? 30_000),
  });
}
