import type { Translations } from "@parlons/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/** Events learners book places at (free: no payment). */
export const events = pgTable(
  "events",
  {
    id: id(),
    slug: text("slug").notNull(),
    titleFr: text("title_fr").notNull(),
    titleEn: text("title_en").notNull(),
    descriptionFr: text("description_fr").notNull().default(""),
    descriptionEn: text("description_en").notNull().default(""),
    /** Title and description in the locales beyond French and English (`{ es: { title, description } }`). */
    translations: jsonb("translations").$type<Translations<"title" | "description">>().notNull().default({}),
    kind: text("kind", { enum: ["online", "in_person"] }).notNull(),
    location: text("location"),
    /** The meeting link: shown to staff and to learners holding a booking only. */
    onlineUrl: text("online_url"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** Places in all. */
    capacity: integer("capacity").notNull(),
    active: boolean("active").notNull().default(true),
    /** Open to learners on a paid plan only. */
    premiumOnly: boolean("premium_only").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("events_slug_key").on(t.slug),
    index("events_active_starts_idx").on(t.active, t.startsAt),
    check("events_kind", sql`${t.kind} in ('online', 'in_person')`),
    check("events_capacity", sql`${t.capacity} > 0`),
    check("events_dates", sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * A learner's places at an event. Booking locks the event row, so places are never overbooked.
 * WAITING rows are the waiting list of a full event, served in `created_at` order when places free.
 */
export const registrations = pgTable(
  "registrations",
  {
    id: id(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    places: integer("places").notNull(),
    status: text("status", { enum: ["BOOKED", "WAITING", "CANCELLED"] })
      .notNull()
      .default("BOOKED"),
    createdAt: createdAt(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** When a waiting registration got its places. */
    promotedAt: timestamp("promoted_at", { withTimezone: true }),
    /** Set in the transaction that queues the 24-hour reminder: it is queued once. */
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
  },
  (t) => [
    // at most one live booking (or place on the waiting list) per learner and event; cancelled ones stay as history
    uniqueIndex("registrations_one_live_key")
      .on(t.eventId, t.userId)
      .where(sql`${t.status} in ('BOOKED', 'WAITING')`),
    index("registrations_event_status_idx").on(t.eventId, t.status),
    index("registrations_user_idx").on(t.userId, t.createdAt),
    check("registrations_places", sql`${t.places} >= 1`),
    check("registrations_status", sql`${t.status} in ('BOOKED', 'WAITING', 'CANCELLED')`),
  ],
);
