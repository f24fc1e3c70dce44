import type { EventItem, RegistrationItem } from "@parlons/contract";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { events, registrations } from "../../db/schema/events";
import { namingFields } from "../../lib/naming";
import type { Principal } from "../../lib/principal";
import { isEventStaff } from "./policy";
import type { EventRow, RegistrationRow } from "./rows";

/**
 * Events and registrations as the API shows them: places booked and left, the waiting line and
 * each one's place in it, the meeting link only for staff and learners who booked.
 */
export function createEventPresenter(db: Db, now: () => Date) {
  async function placesBooked(eventIds: string[], tx: DbOrTx = db): Promise<Map<string, number>> {
    if (eventIds.length === 0) return new Map();
    const rows = await tx
      .select({
        eventId: registrations.eventId,
        places: sql<number>`coalesce(sum(${registrations.places}), 0)::int`,
      })
      .from(registrations)
      .where(and(inArray(registrations.eventId, eventIds), eq(registrations.status, "BOOKED")))
      .groupBy(registrations.eventId);
    return new Map(rows.map((r) => [r.eventId, Number(r.places)]));
  }

  async function waitingCounts(eventIds: string[], tx: DbOrTx = db): Promise<Map<string, number>> {
    if (eventIds.length === 0) return new Map();
    const rows = await tx
      .select({ eventId: registrations.eventId, n: count() })
      .from(registrations)
      .where(and(inArray(registrations.eventId, eventIds), eq(registrations.status, "WAITING")))
      .groupBy(registrations.eventId);
    return new Map(rows.map((r) => [r.eventId, Number(r.n)]));
  }

  async function bookedBy(userId: string, eventIds: string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows = await db
      .select({ eventId: registrations.eventId })
      .from(registrations)
      .where(
        and(
          eq(registrations.userId, userId),
          eq(registrations.status, "BOOKED"),
          inArray(registrations.eventId, eventIds),
        ),
      );
    return new Set(rows.map((r) => r.eventId));
  }

  /** The events as `viewer` may see them: the meeting link only for staff and learners who booked. */
  async function present(rows: EventRow[], viewer: Principal | null): Promise<EventItem[]> {
    const ids = rows.map((r) => r.id);
    const staff = isEventStaff(viewer);
    const [booked, waiting, mine] = await Promise.all([
      placesBooked(ids),
      waitingCounts(ids),
      viewer && !staff ? bookedBy(viewer.id, ids) : Promise.resolve(new Set<string>()),
    ]);
    const at = now().getTime();
    return rows.map((r) => {
      const taken = booked.get(r.id) ?? 0;
      const left = Math.max(0, r.capacity - taken);
      const queue = waiting.get(r.id) ?? 0;
      const open = r.active && r.startsAt.getTime() > at;
      return {
        id: r.id,
        slug: r.slug,
        ...namingFields(r),
        kind: r.kind,
        location: r.location,
        online_url: staff || mine.has(r.id) ? r.onlineUrl : null,
        starts_at: r.startsAt.toISOString(),
        ends_at: r.endsAt.toISOString(),
        capacity: r.capacity,
        places_booked: taken,
        places_left: left,
        // with learners waiting, freed places are theirs: newcomers join the line
        bookable: open && left > 0 && queue === 0,
        waitlist_open: open && (left === 0 || queue > 0),
        waiting_count: queue,
        active: r.active,
        premium_only: r.premiumOnly,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  }

  async function presentOne(row: EventRow, viewer: Principal | null): Promise<EventItem> {
    return (await present([row], viewer))[0] as EventItem;
  }

  async function presentRegistrations(
    rows: RegistrationRow[],
    viewer: Principal,
  ): Promise<RegistrationItem[]> {
    const eventIds = [...new Set(rows.map((r) => r.eventId))];
    const eventRows = eventIds.length
      ? await db.select().from(events).where(inArray(events.id, eventIds))
      : [];
    const items = new Map((await present(eventRows, viewer)).map((e) => [e.id, e]));
    const positions = await waitingPositions(rows);
    return rows.flatMap((r) => {
      const event = items.get(r.eventId);
      return event ? [{ ...presentRegistration(r, positions.get(r.id)), event }] : [];
    });
  }

  /** The place in line of each WAITING registration (1: next to get places). */
  async function waitingPositions(rows: RegistrationRow[]): Promise<Map<string, number>> {
    const waiting = rows.filter((r) => r.status === "WAITING");
    const eventIds = [...new Set(waiting.map((r) => r.eventId))];
    if (eventIds.length === 0) return new Map();
    const line = await db
      .select({ id: registrations.id, eventId: registrations.eventId })
      .from(registrations)
      .where(and(inArray(registrations.eventId, eventIds), eq(registrations.status, "WAITING")))
      .orderBy(asc(registrations.createdAt), asc(registrations.id));
    const positions = new Map<string, number>();
    const seen = new Map<string, number>();
    for (const r of line) {
      const n = (seen.get(r.eventId) ?? 0) + 1;
      seen.set(r.eventId, n);
      positions.set(r.id, n);
    }
    return positions;
  }

  function presentRegistration(r: RegistrationRow, position?: number): Omit<RegistrationItem, "event"> {
    return {
      id: r.id,
      event_id: r.eventId,
      user_id: r.userId,
      places: r.places,
      status: r.status,
      created_at: r.createdAt.toISOString(),
      cancelled_at: r.cancelledAt?.toISOString() ?? null,
      promoted_at: r.promotedAt?.toISOString() ?? null,
      waiting_position: r.status === "WAITING" ? (position ?? null) : null,
    };
  }

  return {
    placesBooked,
    waitingCounts,
    bookedBy,
    present,
    presentOne,
    presentRegistrations,
    waitingPositions,
    presentRegistration,
  };
}

export type EventPresenter = ReturnType<typeof createEventPresenter>;
