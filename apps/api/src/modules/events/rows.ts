import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { events, type registrations } from "../../db/schema/events";
import { AppError, conflict, notFound } from "../../lib/errors";

export type EventRow = typeof events.$inferSelect;
export type RegistrationRow = typeof registrations.$inferSelect;

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.cause?.code;
  const name = e?.constraint ?? e?.cause?.constraint;
  return code === "23505" && (!constraint || !name || name === constraint);
}

export const eventFull = (left: number) =>
  new AppError(
    409,
    "EVENT_FULL",
    left > 0 ? `Only ${left} place(s) left at this event` : "This event is full",
    undefined,
  );
export const alreadyBooked = () => conflict("You already have a booking for this event", "ALREADY_BOOKED");
export const eventClosed = (message: string) =>
  new AppError(422, "EVENT_CLOSED", message, { event_id: [message] });
export const premiumOnly = () =>
  new AppError(403, "PREMIUM_REQUIRED", "This event is open to learners on a paid plan only", undefined);

/** How long before an event its reminder is queued. */
export const REMINDER_BEFORE_MS = 24 * 3600_000;

export async function getEvent(id: string, tx: DbOrTx): Promise<EventRow> {
  const [row] = await tx.select().from(events).where(eq(events.id, id));
  if (!row) throw notFound("Event");
  return row;
}

export async function lockEvent(id: string, tx: DbOrTx): Promise<EventRow> {
  const [row] = await tx.select().from(events).where(eq(events.id, id)).for("update");
  if (!row) throw notFound("Event");
  return row;
}

/** What the audit log keeps of an event. */
export const presentRow = (row: EventRow) => ({
  slug: row.slug,
  title_fr: row.titleFr,
  title_en: row.titleEn,
  translations: row.translations,
  kind: row.kind,
  location: row.location,
  starts_at: row.startsAt.toISOString(),
  ends_at: row.endsAt.toISOString(),
  capacity: row.capacity,
  active: row.active,
  premium_only: row.premiumOnly,
});

/** Message parameters of an event notification: its titles in both languages and its start. */
export const eventData = (event: EventRow) => ({
  event_title_fr: event.titleFr,
  event_title_en: event.titleEn,
  starts_at: event.startsAt.toISOString(),
});
