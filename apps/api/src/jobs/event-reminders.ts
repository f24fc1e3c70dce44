import type { EventService } from "../modules/events/service";
import { type QueueingJob, type QueueingJobOptions, startQueueingJob } from "./queueing-job";

/**
 * Queues the 24-hour reminders of event bookings every few minutes (started by server.ts).
 * Overlapping runs, in one process or many, are safe: each reminder is claimed by a conditional
 * update in its own transaction (EventService.remindDue), so it is queued once.
 */
export function startEventReminders(
  opts: QueueingJobOptions & { events: Pick<EventService, "remindDue"> },
): QueueingJob {
  const { events, ...job } = opts;
  return startQueueingJob({
    ...job,
    job: "event-reminders",
    what: "event reminders",
    queue: (now) => events.remindDue(now),
    firstRunMs: 20_000,
  });
}
