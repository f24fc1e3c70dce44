import type { EventService } from "../modules/events/service";
import { type Job, type JobOptions, startJob } from "./runner";

/**
 * Queues the 24-hour reminders of event bookings every five minutes (started by server.ts).
 * Overlapping runs, in one process or many, are safe: each reminder is claimed by a conditional
 * update in its own transaction (EventService.remindDue), so it is queued once.
 */
export function startEventReminders(
  opts: JobOptions & { events: Pick<EventService, "remindDue"> },
): Job<number> {
  const { events, ...job } = opts;
  return startJob({
    ...job,
    name: "event-reminders",
    run: ({ now }) => events.remindDue(now),
    idle: 0,
    report: (queued) => ({
      ...(queued ? { message: "event reminders queued", fields: { queued } } : {}),
      items: { queued },
    }),
    failed: "event reminders failed",
    everyMs: 5 * 60_000,
    firstMs: 20_000,
  });
}
