import {
  type BookingBody,
  type EventBody,
  type EventItem,
  type EventListQuery,
  type EventRegistrationItem,
  type EventRegistrationsQuery,
  type EventUpdateBody,
  eventRuleErrors,
  langPrefix,
  type MyRegistrationsQuery,
  pickText,
  type RegistrationItem,
  type Speak,
  slugify,
  toLocale,
} from "@parlons/contract";
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { paginate } from "../../db/paginate";
import { events, registrations } from "../../db/schema/events";
import { AppError, conflict, notFound, validationFailed } from "../../lib/errors";
import { formatDateTime, type Lang } from "../../lib/format";
import { uniqueSlug } from "../../lib/unique-slug";
import { changedFields } from "../audit/policy";
import type { AuditService } from "../audit/service";
import type { EntitlementService } from "../entitlement/service";
import type { MailOutbox } from "../mail/outbox";
import type { TransactionalMails } from "../mail/transactional";
import type { NotificationService } from "../notifications/service";
import type { SettingsService } from "../settings/service";
import type { Principal, UserService } from "../users/service";
import { eventIcs } from "./ics";
import { canSeeEvent, isEventStaff } from "./policy";

export type EventRow = typeof events.$inferSelect;
export type RegistrationRow = typeof registrations.$inferSelect;

function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.cause?.code;
  const name = e?.constraint ?? e?.cause?.constraint;
  return code === "23505" && (!constraint || !name || name === constraint);
}

const eventFull = (left: number) =>
  new AppError(
    409,
    "EVENT_FULL",
    left > 0 ? `Only ${left} place(s) left at this event` : "This event is full",
    undefined,
  );
const alreadyBooked = () => conflict("You already have a booking for this event", "ALREADY_BOOKED");
const eventClosed = (message: string) => new AppError(422, "EVENT_CLOSED", message, { event_id: [message] });
const premiumOnly = () =>
  new AppError(403, "PREMIUM_REQUIRED", "This event is open to learners on a paid plan only", undefined);

/** How long before an event its reminder is queued. */
const REMINDER_BEFORE_MS = 24 * 3600_000;

/**
 * Events and the places learners book at them. Every change of places (booking, cancelling,
 * promoting from the waiting list, a new capacity) locks the event row (`FOR UPDATE`) first and
 * counts inside the same transaction, so concurrent requests on one event take turns: the
 * capacity is never exceeded and the waiting list is served once, in order.
 */
/** The words of an event's lines in a mail, in each language. */
const DETAIL_WORDS: Record<Lang, { online: string; places: (n: number) => string }> = {
  fr: { online: "En ligne", places: (n) => `Places : ${n}` },
  en: { online: "Online", places: (n) => `Places: ${n}` },
  es: { online: "En línea", places: (n) => `Plazas: ${n}` },
};

export function createEventService(deps: {
  db: Db;
  users: UserService;
  notifications: Pick<NotificationService, "notify">;
  audit: AuditService;
  entitlement: Pick<EntitlementService, "accessOf" | "canJoinEvent">;
  outbox: Pick<MailOutbox, "enqueue">;
  mails: TransactionalMails;
  settings: Pick<SettingsService, "current">;
  publicUrl: string;
  now?: () => Date;
}) {
  const { db, users } = deps;
  const now = deps.now ?? (() => new Date());

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
        title_fr: r.titleFr,
        title_en: r.titleEn,
        description_fr: r.descriptionFr,
        description_en: r.descriptionEn,
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

  const langOf = (speak: Speak): Lang => toLocale(speak);
  const eventPage = (eventId: string, lang: Lang) => `${deps.publicUrl}${langPrefix(lang)}/events/${eventId}`;

  /** The event's lines in a mail: title, time (Paris time, with its zone), place. */
  function eventDetails(event: EventRow, lang: Lang, places: number): string {
    const words = DETAIL_WORDS[lang];
    return [
      pickText({ fr: event.titleFr, en: event.titleEn }, lang),
      formatDateTime(event.startsAt, lang),
      event.kind === "in_person" ? (event.location ?? "") : words.online,
      words.places(places),
    ]
      .filter(Boolean)
      .join("\n");
  }

  /** An .ics of the event for a reader (the meeting link only for staff and learners holding a booking). */
  async function icsFor(
    event: EventRow,
    lang: Lang,
    withMeetingLink: boolean,
    tx: DbOrTx = db,
  ): Promise<string> {
    const setting = await deps.settings.current(tx);
    return await eventIcs(event, {
      lang,
      pageUrl: eventPage(event.id, lang),
      withMeetingLink,
      organizer: { name: setting.seller.name, email: setting.contact_email },
    });
  }

  /** Queues, in `tx`, the confirmation of a booking (a new one or one promoted from the waiting list), with its .ics. */
  async function mailBooked(event: EventRow, registration: RegistrationRow, tx: DbOrTx): Promise<void> {
    const user = await users.findById(registration.userId, tx);
    if (!user) return;
    const lang = langOf(user.speak);
    const mail = await deps.mails.compose(
      "event-booked",
      { email: user.email, fullName: user.fullName, speak: user.speak },
      eventPage(event.id, lang),
      { details: eventDetails(event, lang, registration.places), tx },
    );
    await deps.outbox.enqueue(
      {
        key: `registration:${registration.id}:booked`,
        userId: user.id,
        to: user.email,
        ...mail,
        attachments: [
          {
            filename: `${event.slug}.ics`,
            contentType: "text/calendar; charset=utf-8; method=PUBLISH",
            content: await icsFor(event, lang, true, tx),
          },
        ],
      },
      tx,
    );
  }

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

  async function get(id: string, tx: DbOrTx = db): Promise<EventRow> {
    const [row] = await tx.select().from(events).where(eq(events.id, id));
    if (!row) throw notFound("Event");
    return row;
  }

  async function lock(id: string, tx: DbOrTx): Promise<EventRow> {
    const [row] = await tx.select().from(events).where(eq(events.id, id)).for("update");
    if (!row) throw notFound("Event");
    return row;
  }

  async function audit(
    tx: DbOrTx,
    actor: Principal,
    action: "events.create" | "events.update" | "events.delete" | "registrations.cancel",
    target: { type: "event" | "registration"; id: string },
    sides: { before?: unknown; after?: unknown },
  ) {
    await deps.audit.record({ actor, action, target, ...sides }, tx);
  }

  /** What the audit log keeps of an event. */
  const presentRow = (row: EventRow) => ({
    slug: row.slug,
    title_fr: row.titleFr,
    title_en: row.titleEn,
    kind: row.kind,
    location: row.location,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
    capacity: row.capacity,
    active: row.active,
    premium_only: row.premiumOnly,
  });

  /** Message parameters of an event notification: its titles in both languages and its start. */
  const eventData = (event: EventRow) => ({
    event_title_fr: event.titleFr,
    event_title_en: event.titleEn,
    starts_at: event.startsAt.toISOString(),
  });

  return {
    present,
    presentOne,
    get,

    /** An event the viewer may see (inactive ones: staff only), else 404. */
    async getVisible(id: string, viewer: Principal | null): Promise<EventRow> {
      const row = await get(id);
      if (!canSeeEvent(viewer, row)) throw notFound("Event");
      return row;
    },

    /** Events not over yet, soonest first; staff also see inactive ones, and past ones with include=past. */
    async list(query: EventListQuery, viewer: Principal | null) {
      const staff = isEventStaff(viewer);
      const filters: (SQL | undefined)[] = [];
      if (!staff) filters.push(eq(events.active, true));
      if (!(staff && query.include === "past")) filters.push(gt(events.endsAt, now()));
      const where = and(...filters);
      const { rows, pagination } = await paginate(
        query,
        db
          .select()
          .from(events)
          .where(where)
          .orderBy(
            staff && query.include === "past" ? desc(events.startsAt) : asc(events.startsAt),
            asc(events.id),
          )
          .$dynamic(),
        db.select({ n: count() }).from(events).where(where),
      );
      return { events: await present(rows, viewer), pagination };
    },

    async create(actor: Principal, body: EventBody): Promise<EventRow> {
      try {
        return await db.transaction(async (tx) => {
          let slug: string;
          if (body.slug) {
            const [taken] = await tx.select({ id: events.id }).from(events).where(eq(events.slug, body.slug));
            if (taken) throw conflict("This slug is taken");
            slug = body.slug;
          } else {
            slug = await uniqueSlug(tx, events, slugify(body.title_fr), "event");
          }
          const [row] = await tx
            .insert(events)
            .values({
              slug,
              titleFr: body.title_fr,
              titleEn: body.title_en,
              descriptionFr: body.description_fr,
              descriptionEn: body.description_en,
              kind: body.kind,
              location: body.location || null,
              onlineUrl: body.online_url || null,
              startsAt: new Date(body.starts_at),
              endsAt: new Date(body.ends_at),
              capacity: body.capacity,
              active: body.active,
              premiumOnly: body.premium_only,
            })
            .returning();
          if (!row) throw new Error("event insert failed");
          await audit(tx, actor, "events.create", { type: "event", id: row.id }, { after: presentRow(row) });
          return row;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict("This slug is taken");
        throw err;
      }
    },

    /** Partial update; the capacity cannot go below the places already booked. */
    async update(actor: Principal, id: string, body: EventUpdateBody): Promise<EventRow> {
      try {
        return await db.transaction(async (tx) => {
          const before = await lock(id, tx);
          const merged = {
            kind: body.kind ?? before.kind,
            location: body.location !== undefined ? body.location : before.location,
            starts_at: body.starts_at ?? before.startsAt,
            ends_at: body.ends_at ?? before.endsAt,
          };
          const errors = eventRuleErrors(merged);
          if (body.capacity !== undefined) {
            const booked = (await placesBooked([id], tx)).get(id) ?? 0;
            if (body.capacity < booked)
              errors.capacity = [`${booked} places are already booked: the capacity cannot be lower`];
          }
          if (Object.keys(errors).length > 0) throw validationFailed(errors);
          const changes: Partial<typeof events.$inferInsert> = {
            titleFr: body.title_fr,
            titleEn: body.title_en,
            descriptionFr: body.description_fr,
            descriptionEn: body.description_en,
            kind: body.kind,
            location: body.location === undefined ? undefined : body.location || null,
            onlineUrl: body.online_url === undefined ? undefined : body.online_url || null,
            startsAt: body.starts_at ? new Date(body.starts_at) : undefined,
            endsAt: body.ends_at ? new Date(body.ends_at) : undefined,
            capacity: body.capacity,
            active: body.active,
            premiumOnly: body.premium_only,
            updatedAt: now(),
          };
          if (body.slug !== undefined && body.slug !== before.slug) {
            const [taken] = await tx.select({ id: events.id }).from(events).where(eq(events.slug, body.slug));
            if (taken) throw conflict("This slug is taken");
            changes.slug = body.slug;
          }
          const [row] = await tx.update(events).set(changes).where(eq(events.id, id)).returning();
          if (!row) throw notFound("Event");
          const changed = changedFields(presentRow(before), presentRow(row));
          if (changed) await audit(tx, actor, "events.update", { type: "event", id }, changed);
          // a larger capacity serves the waiting list
          if (row.capacity > before.capacity) await promote(row, tx);
          return row;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict("This slug is taken");
        throw err;
      }
    },

    /**
     * Deletes the event. Refused (409) while places are booked, unless forced: the bookings
     * are then cancelled with it (the audit entry keeps who held them).
     */
    async delete(actor: Principal, id: string, force: boolean) {
      return db.transaction(async (tx) => {
        const event = await lock(id, tx);
        const booked = await tx
          .select({ userId: registrations.userId, places: registrations.places })
          .from(registrations)
          .where(and(eq(registrations.eventId, id), eq(registrations.status, "BOOKED")));
        if (booked.length > 0 && !force) {
          throw conflict(
            `${booked.length} booking(s) hold places at this event: delete with force=true to cancel them`,
          );
        }
        await tx.delete(events).where(eq(events.id, id));
        for (const booking of booked) {
          await deps.notifications.notify(
            booking.userId,
            "event.booking_cancelled",
            eventData(event),
            "/events",
            tx,
          );
        }
        await audit(
          tx,
          actor,
          "events.delete",
          { type: "event", id },
          { before: { ...presentRow(event), cancelled_registrations: booked } },
        );
        return { id, cancelled_registrations: booked.length };
      });
    },

    // ---------------------------------------------------------------- registrations

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

    /** The event as an .ics file for the viewer, in `lang`. */
    async ics(id: string, viewer: Principal | null, lang: Lang): Promise<{ slug: string; ics: string }> {
      const event = await get(id);
      if (!canSeeEvent(viewer, event)) throw notFound("Event");
      const mine = viewer ? await bookedBy(viewer.id, [event.id]) : new Set<string>();
      return { slug: event.slug, ics: await icsFor(event, lang, isEventStaff(viewer) || mine.has(event.id)) };
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
          if (!row) return false;
          const [event, user] = await Promise.all([get(row.eventId, tx), users.findById(row.userId, tx)]);
          if (!user) return false;
          const lang = langOf(user.speak);
          const mail = await deps.mails.compose(
            "event-reminder",
            { email: user.email, fullName: user.fullName, speak: user.speak },
            eventPage(event.id, lang),
            { details: eventDetails(event, lang, row.places), tx },
          );
          return deps.outbox.enqueue(
            { key: `registration:${row.id}:reminder`, userId: user.id, to: user.email, ...mail },
            tx,
          );
        });
        if (sent) queued += 1;
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
      const { rows, pagination } = await paginate(
        query,
        db
          .select()
          .from(registrations)
          .where(where)
          .orderBy(asc(registrations.createdAt), asc(registrations.id))
          .$dynamic(),
        db.select({ n: count() }).from(registrations).where(where),
      );
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
export type EventService = ReturnType<typeof createEventService>;
