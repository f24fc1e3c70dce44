import type {
  BookingBody,
  EventRegistrationItem,
  EventRegistrationsQuery,
  MyRegistrationsQuery,
  RegistrationItem,
} from "@parlons/contract";
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { pageOf, paginate } from "../../db/paginate";
import { events, registrations } from "../../db/schema/events";
import { notFound } from "../../lib/errors";
import type { Principal } from "../../lib/principal";
import type { EntitlementService } from "../entitlement/service";
import type { MailOutbox } from "../mail/outbox";
import type { TransactionalMails } from "../mail/transactional";
import type { NotificationService } from "../notifications/service";
import type { PushService } from "../push/service";
import type { UserService } from "../users/service";
import type { EventMails } from "./mails";
import { canSeeEvent, isEventStaff } from "./policy";
import type { EventPresenter } from "./present";
import {
  alreadyBooked,
  type EventRow,
  eventClosed,
  eventData,
  eventFull,
  getEvent,
  isUniqueViolation,
  lockEvent,
  premiumOnly,
  REMINDER_BEFORE_MS,
  type RegistrationRow,
} from "./rows";

/**
 * The places learners book at events: bookings, the waiting list and its promotions,
 * cancellations, reminders, and the lists of registrations. Every change of places locks the
 * event row (`FOR UPDATE`) first and counts inside the same transaction.
 */
export function createEventRegistrations(
  deps: {
    db: Db;
    users: Pick<UserService, "findById">;
    notifications: Pick<NotificationService, "notify">;
    entitlement: Pick<EntitlementService, "accessOf" | "canJoinEvent">;
    outbox: Pick<MailOutbox, "enqueue">;
    mails: TransactionalMails;
    push: Pick<PushService, "has" | "send">;
    now: () => Date;
  },
  parts: {
    presenter: EventPresenter;
    eventMails: EventMails;
    audit: (
      tx: DbOrTx,
      actor: Principal,
      action: "registrations.cancel",
      target: { type: "registration"; id: string },
      sides: { before?: unknown; after?: unknown },
    ) => Promise<void>;
  },
) {
  const { db, users, now } = deps;
  const { placesBooked, waitingCounts, presentRegistrations, waitingPositions, presentRegistration } =
    parts.presenter;
  const { langOf, eventPage, eventDetails, eventPush, mailBooked } = parts.eventMails;
  const { audit } = parts;
  const get = (id: string, tx: DbOrTx = db) => getEvent(id, tx);
  const lock = lockEvent;

  /**
   * Gives freed places to the waiting list, first come first served, inside the transaction that
   * freed them (the event row is locked by the caller). The first in line who needs more places
   * than are free keeps its turn: nobody behind it is served before it.
   */
  async function promote(event: EventRow, tx: DbOrTx): Promise<RegistrationRow[]> {
    if (event.startsAt.getTime() <= now().getTime()) return [];
    let left = event.capacity - ((await placesBooked([event.id], tx)).get(event.id) ?? 0);
    const promoted: RegistrationRow[] = [];
    if (left <= 0) return promoted;
    const line = await tx
      .select()
      .from(registrations)
      .where(and(eq(registrations.eventId, event.id), eq(registrations.status, "WAITING")))
      .orderBy(asc(registrations.createdAt), asc(registrations.id));
    for (const waiting of line) {
      if (waiting.places > left) break;
      const [row] = await tx
        .update(registrations)
        .set({ status: "BOOKED", promotedAt: now() })
        .where(and(eq(registrations.id, waiting.id), eq(registrations.status, "WAITING")))
        .returning();
      if (!row) continue;
      left -= row.places;
      promoted.push(row);
      await deps.notifications.notify(
        row.userId,
        "event.booked",
        { ...eventData(event), places: row.places },
        `/events/${event.id}`,
        tx,
      );
      await mailBooked(event, row, tx);
    }
    return promoted;
  }

  return {
    promote,

    /**
     * Books places for the actor: one live registration per event, never beyond the capacity.
     * A full event (or one with learners already waiting) refuses with 409 EVENT_FULL, or puts
     * the learner on its waiting list when asked (`waitlist: true`). A premium-only event is
     * refused (403) to learners whose plan does not open it.
     */
    async book(actor: Principal, body: BookingBody): Promise<RegistrationItem> {
      // read before the transaction: on PGlite's one connection, nothing may run beside it
      const access = await deps.entitlement.accessOf(actor);
      let row: RegistrationRow;
      try {
        row = await db.transaction(async (tx) => {
          // Concurrent bookings of this event wait here: the count below sees every booking before ours.
          const event = await lock(body.event_id, tx);
          if (!canSeeEvent(actor, event) || !event.active) throw notFound("Event");
          if (
            !isEventStaff(actor) &&
            !deps.entitlement.canJoinEvent(access, { premium_only: event.premiumOnly })
          )
            throw premiumOnly();
          if (event.startsAt.getTime() <= now().getTime())
            throw eventClosed("This event has started or is over: bookings are closed");
          const [existing] = await tx
            .select({ id: registrations.id })
            .from(registrations)
            .where(
              and(
                eq(registrations.eventId, event.id),
                eq(registrations.userId, actor.id),
                inArray(registrations.status, ["BOOKED", "WAITING"]),
              ),
            );
          if (existing) throw alreadyBooked();
          const taken = (await placesBooked([event.id], tx)).get(event.id) ?? 0;
          const queue = (await waitingCounts([event.id], tx)).get(event.id) ?? 0;
          const left = queue > 0 ? 0 : event.capacity - taken;
          const waiting = body.places > left;
          if (waiting && !body.waitlist) throw eventFull(Math.max(0, left));
          if (waiting && body.places > event.capacity) throw eventFull(Math.max(0, left));
          const [created] = await tx
            .insert(registrations)
            .values({
              eventId: event.id,
              userId: actor.id,
              places: body.places,
              status: waiting ? "WAITING" : "BOOKED",
            })
            .returning();
          if (!created) throw new Error("registration insert failed");
          if (!waiting) {
            await deps.notifications.notify(
              actor.id,
              "event.booked",
              { ...eventData(event), places: created.places },
              `/events/${event.id}`,
              tx,
            );
            await mailBooked(event, created, tx);
          }
          return created;
        });
      } catch (err) {
        if (isUniqueViolation(err, "registrations_one_live_key")) throw alreadyBooked();
        throw err;
      }
      return (await presentRegistrations([row], actor))[0] as RegistrationItem;
    },

    /**
     * Queues the reminder of every booking whose event starts within 24 hours. The row is marked
     * (`reminded_at`) by a conditional update in the transaction that queues the mail, and the
     * mail's key is the registration's: however many runs or processes overlap, one reminder each.
     */
    async remindDue(at = now()): Promise<number> {
      const due = await db
        .select({ id: registrations.id })
        .from(registrations)
        .innerJoin(events, eq(events.id, registrations.eventId))
        .where(
          and(
            eq(registrations.status, "BOOKED"),
            isNull(registrations.remindedAt),
            eq(events.active, true),
            gt(events.startsAt, at),
            lte(events.startsAt, new Date(at.getTime() + REMINDER_BEFORE_MS)),
          ),
        )
        .orderBy(asc(events.startsAt))
        .limit(500);
      let queued = 0;
      for (const { id } of due) {
        const sent = await db.transaction(async (tx) => {
          const [row] = await tx
            .update(registrations)
            .set({ remindedAt: at })
            .where(
              and(
                eq(registrations.id, id),
                eq(registrations.status, "BOOKED"),
                isNull(registrations.remindedAt),
              ),
            )
            .returning();
          if (!row) return null;
          const [event, user] = await Promise.all([get(row.eventId, tx), users.findById(row.userId, tx)]);
          if (!user) return null;
          const lang = langOf(user.speak);
          const mail = await deps.mails.compose(
            "event-reminder",
            { email: user.email, fullName: user.fullName, speak: user.speak },
            eventPage(event.id, lang),
            { details: eventDetails(event, lang, row.places), tx },
          );
          const queuedMail = await deps.outbox.enqueue(
            { key: `registration:${row.id}:reminder`, userId: user.id, to: user.email, ...mail },
            tx,
          );
          return queuedMail ? { userId: user.id, message: eventPush(event, lang) } : null;
        });
        if (!sent) continue;
        queued += 1;
        // and as a notification to the learner's subscribed browsers, once the claim is committed
        if (await deps.push.has(sent.userId)) await deps.push.send(sent.userId, sent.message);
      }
      return queued;
    },

    /** The learner who booked a registration (null: no such registration), for the access policy. */
    async learnerOf(id: string): Promise<string | null> {
      const [row] = await db
        .select({ userId: registrations.userId })
        .from(registrations)
        .where(eq(registrations.id, id));
      return row?.userId ?? null;
    },

    /** A registration (its route lets only its learner and staff in). */
    async getRegistration(actor: Principal, id: string): Promise<RegistrationItem> {
      const [row] = await db.select().from(registrations).where(eq(registrations.id, id));
      if (!row) throw notFound("Registration");
      return (await presentRegistrations([row], actor))[0] as RegistrationItem;
    },

    async mine(actor: Principal, query: MyRegistrationsQuery) {
      const filters: (SQL | undefined)[] = [eq(registrations.userId, actor.id)];
      if (query.status) filters.push(eq(registrations.status, query.status));
      const upcoming = query.upcoming === "true";
      if (upcoming) filters.push(gt(events.endsAt, now()));
      const where = and(...filters);
      const { rows, pagination } = await paginate(
        query,
        db
          .select({ registration: registrations })
          .from(registrations)
          .innerJoin(events, eq(events.id, registrations.eventId))
          .where(where)
          .orderBy(upcoming ? asc(events.startsAt) : desc(registrations.createdAt), asc(registrations.id))
          .$dynamic(),
        db
          .select({ n: count() })
          .from(registrations)
          .innerJoin(events, eq(events.id, registrations.eventId))
          .where(where),
      );
      return {
        registrations: await presentRegistrations(
          rows.map((r) => r.registration),
          actor,
        ),
        pagination,
      };
    },

    /**
     * Cancels a booking (or a place on the waiting list) and frees its places, which go to the
     * waiting list in order within the same transaction. The owner may cancel until the event
     * starts; staff at any time (recorded in the audit log). Cancelling twice changes nothing.
     * The event row is locked before the registration, in the same order as bookings, so
     * concurrent cancellations and bookings take turns and each freed place is given once.
     */
    async cancel(actor: Principal, id: string): Promise<RegistrationItem> {
      const row = await db.transaction(async (tx) => {
        const [ref] = await tx
          .select({ eventId: registrations.eventId })
          .from(registrations)
          .where(eq(registrations.id, id));
        if (!ref) throw notFound("Registration");
        const event = await lock(ref.eventId, tx);
        const [found] = await tx.select().from(registrations).where(eq(registrations.id, id)).for("update");
        if (!found) throw notFound("Registration");
        if (found.status === "CANCELLED") return found;
        const staffAction = found.userId !== actor.id;
        if (!staffAction && event.startsAt.getTime() <= now().getTime())
          throw eventClosed("This event has started or is over: the booking can no longer be cancelled");
        const [updated] = await tx
          .update(registrations)
          .set({ status: "CANCELLED", cancelledAt: now() })
          .where(eq(registrations.id, id))
          .returning();
        if (!updated) throw notFound("Registration");
        if (staffAction) {
          await audit(
            tx,
            actor,
            "registrations.cancel",
            { type: "registration", id },
            {
              before: {
                status: found.status,
                event_id: found.eventId,
                user_id: found.userId,
                places: found.places,
              },
              after: { status: updated.status },
            },
          );
          await deps.notifications.notify(
            found.userId,
            "event.booking_cancelled",
            eventData(event),
            `/events/${event.id}`,
            tx,
          );
        }
        // places freed, or the head of the line left: the next in line may now fit
        await promote(event, tx);
        return updated;
      });
      return (await presentRegistrations([row], actor))[0] as RegistrationItem;
    },

    /** Staff: who booked an event. */
    async registrationsOf(eventId: string, query: EventRegistrationsQuery) {
      await get(eventId);
      const filters: (SQL | undefined)[] = [eq(registrations.eventId, eventId)];
      if (query.status) filters.push(eq(registrations.status, query.status));
      const where = and(...filters);
      const { rows, pagination } = await pageOf(db, query, registrations, where, [
        asc(registrations.createdAt),
        asc(registrations.id),
      ]);
      const people = new Map(
        (await Promise.all([...new Set(rows.map((r) => r.userId))].map((uid) => users.findById(uid))))
          .filter((u): u is NonNullable<typeof u> => Boolean(u))
          .map((u) => [u.id, u]),
      );
      const positions = await waitingPositions(rows);
      const items: EventRegistrationItem[] = rows.map((r) => {
        const user = people.get(r.userId);
        return {
          ...presentRegistration(r, positions.get(r.id)),
          user: { id: r.userId, email: user?.email ?? "", full_name: user?.fullName || null },
        };
      });
      return {
        registrations: items,
        pagination,
        places_booked: (await placesBooked([eventId])).get(eventId) ?? 0,
      };
    },
  };
}
