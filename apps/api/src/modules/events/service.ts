import {
  type EventBody,
  type EventListQuery,
  type EventUpdateBody,
  eventRuleErrors,
} from "@parlons/contract";
import { and, asc, desc, eq, gt, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { pageOf } from "../../db/paginate";
import { events, registrations } from "../../db/schema/events";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import type { Lang } from "../../lib/format";
import { namingColumns, namingTranslations } from "../../lib/naming";
import type { Principal } from "../../lib/principal";
import { assertSlugFree, chooseSlug } from "../../lib/unique-slug";
import { changedFields } from "../audit/policy";
import type { AuditService } from "../audit/service";
import type { EntitlementService } from "../entitlement/service";
import type { MailOutbox } from "../mail/outbox";
import type { TransactionalMails } from "../mail/transactional";
import type { NotificationService } from "../notifications/service";
import type { PushService } from "../push/service";
import type { SettingsService } from "../settings/service";
import type { UserService } from "../users/service";
import { createEventMails } from "./mails";
import { canSeeEvent, isEventStaff } from "./policy";
import { createEventPresenter } from "./present";
import { createEventRegistrations } from "./registrations";
import { type EventRow, eventData, getEvent, isUniqueViolation, lockEvent, presentRow } from "./rows";

/**
 * Events and the places learners book at them (registrations.ts). Every change of places
 * (booking, cancelling, promoting from the waiting list, a new capacity) locks the event row
 * (`FOR UPDATE`) first and counts inside the same transaction, so concurrent requests on one
 * event take turns: the capacity is never exceeded and the waiting list is served once, in order.
 */
export function createEventService(deps: {
  db: Db;
  users: UserService;
  notifications: Pick<NotificationService, "notify">;
  audit: AuditService;
  entitlement: Pick<EntitlementService, "accessOf" | "canJoinEvent">;
  outbox: Pick<MailOutbox, "enqueue">;
  mails: TransactionalMails;
  push: Pick<PushService, "has" | "send">;
  settings: Pick<SettingsService, "current">;
  publicUrl: string;
  now?: () => Date;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const presenter = createEventPresenter(db, now);
  const { placesBooked, bookedBy, present, presentOne } = presenter;
  const eventMails = createEventMails(deps);
  const { icsFor } = eventMails;
  const get = (id: string, tx: DbOrTx = db) => getEvent(id, tx);
  const lock = lockEvent;

  async function audit(
    tx: DbOrTx,
    actor: Principal,
    action: "events.create" | "events.update" | "events.delete" | "registrations.cancel",
    target: { type: "event" | "registration"; id: string },
    sides: { before?: unknown; after?: unknown },
  ) {
    await deps.audit.record({ actor, action, target, ...sides }, tx);
  }

  const { promote, ...registrationsApi } = createEventRegistrations(
    { ...deps, now },
    { presenter, eventMails, audit },
  );

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
      const { rows, pagination } = await pageOf(db, query, events, where, [
        staff && query.include === "past" ? desc(events.startsAt) : asc(events.startsAt),
        asc(events.id),
      ]);
      return { events: await present(rows, viewer), pagination };
    },

    async create(actor: Principal, body: EventBody): Promise<EventRow> {
      try {
        return await db.transaction(async (tx) => {
          const slug = await chooseSlug(tx, events, body.slug, body.title_fr, "event");
          const [row] = await tx
            .insert(events)
            .values({
              slug,
              ...namingColumns(body),
              translations: namingTranslations({}, body) ?? {},
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
            ...namingColumns(body),
            translations: namingTranslations(before.translations, body),
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
            await assertSlugFree(tx, events, body.slug);
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

    /** Whether a live premium-only event is not over yet (what a paid plan of every course opens). */
    async premiumOnlyAhead(): Promise<boolean> {
      const [row] = await db
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.active, true), eq(events.premiumOnly, true), gt(events.endsAt, now())))
        .limit(1);
      return row !== undefined;
    },

    /** The event as an .ics file for the viewer, in `lang`. */
    async ics(id: string, viewer: Principal | null, lang: Lang): Promise<{ slug: string; ics: string }> {
      const event = await get(id);
      if (!canSeeEvent(viewer, event)) throw notFound("Event");
      const mine = viewer ? await bookedBy(viewer.id, [event.id]) : new Set<string>();
      return { slug: event.slug, ics: await icsFor(event, lang, isEventStaff(viewer) || mine.has(event.id)) };
    },

    ...registrationsApi,
  };
}
export type EventService = ReturnType<typeof createEventService>;
