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
import { users } from "./identity";

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
    kind: text("kind", { enum: ["online", "in_person"] }).notNull(),
    location: text("location"),
    /** The meeting link: shown to staff and to learners holding a booking only. */
    onlineUrl: text("online_url"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** Places in all. */
    capacity: integer("capacity").notNull(),
    active: boolean("active").notNull().default(true),
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

/** A learner's places at an event. Booking locks the event row, so places are never overbooked. */
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
    status: text("status", { enum: ["BOOKED", "CANCELLED"] })
      .notNull()
      .default("BOOKED"),
    createdAt: createdAt(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
  },
  (t) => [
    // at most one live booking per learner and event; cancelled ones stay as history
    uniqueIndex("registrations_one_booked_key").on(t.eventId, t.userId).where(sql`${t.status} = 'BOOKED'`),
    index("registrations_event_status_idx").on(t.eventId, t.status),
    index("registrations_user_idx").on(t.userId, t.createdAt),
    check("registrations_places", sql`${t.places} >= 1`),
    check("registrations_status", sql`${t.status} in ('BOOKED', 'CANCELLED')`),
  ],
);

/** Key/value configuration owned by staff (`/v1/configs`). */
export const configs = pgTable("configs", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>(),
  description: text("description").notNull().default(""),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
});
