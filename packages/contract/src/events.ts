import { z } from "zod";
import { envelope, pageQuery, pagination, publishedNaming } from "./common";
import { localeSchema } from "./locale-schema";
import { perLocale, perLocaleOptional } from "./localized";
import { isUrl } from "./validation";

/** Events, the places learners book at them (registrations), and staff configuration values. */

// ---------------------------------------------------------------- events

export const EVENT_KINDS = ["online", "in_person"] as const;
export const eventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof eventKind>;

/** Places one booking may take at most. */
export const MAX_PLACES_PER_BOOKING = 5;
export const MAX_EVENT_CAPACITY = 10_000;

const text = (max: number) => z.string().trim().max(max);
const dateTime = z.iso.datetime({ offset: true, message: "Expected an ISO date and time" });
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => /^https?:\/\//i.test(v) && isUrl(v), "Please enter a valid http(s) URL");

const eventFields = {
  title_fr: text(200).min(1, "Title is required"),
  title_en: text(200).min(1, "Title is required"),
  description_fr: text(10_000).default(""),
  description_en: text(10_000).default(""),
  ...perLocale("title", text(200).default("")),
  ...perLocale("description", text(10_000).default("")),
  kind: eventKind,
  /** Address of an in-person event (required then), or a free note for an online one. */
  location: text(500).nullable().default(null),
  /** Meeting link of an online event; only staff and learners holding a booking receive it. */
  online_url: httpUrl.nullable().default(null),
  starts_at: dateTime,
  ends_at: dateTime,
  capacity: z.number().int().min(1).max(MAX_EVENT_CAPACITY),
  active: z.boolean().default(true),
  /** Open to learners on a paid plan only. */
  premium_only: z.boolean().default(false),
  /** Derived from title_fr when absent; made unique with -2, -3… */
  slug: z
    .string()
    .trim()
    .max(200)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and hyphens")
    .optional(),
};

export interface EventRuleInput {
  kind?: EventKind;
  location?: string | null;
  starts_at?: string | Date;
  ends_at?: string | Date;
}

/** Rules between fields (create, and update once merged with the stored event): field → message. */
export function eventRuleErrors(e: EventRuleInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (e.kind === "in_person" && !e.location?.trim())
    errors.location = ["An in-person event needs a location"];
  if (e.starts_at && e.ends_at && new Date(e.ends_at).getTime() <= new Date(e.starts_at).getTime())
    errors.ends_at = ["The end must come after the start"];
  return errors;
}

function checkRules(value: EventRuleInput, ctx: z.RefinementCtx) {
  for (const [field, messages] of Object.entries(eventRuleErrors(value))) {
    for (const message of messages) ctx.addIssue({ code: "custom", path: [field], message });
  }
}

export const eventBody = z.object(eventFields).superRefine(checkRules);
export type EventBody = z.infer<typeof eventBody>;
/** Partial update; rules between fields are checked against the stored event. */
export const eventUpdateBody = z
  .object({
    title_fr: eventFields.title_fr.optional(),
    title_en: eventFields.title_en.optional(),
    description_fr: text(10_000).optional(),
    description_en: text(10_000).optional(),
    ...perLocaleOptional("title", text(200)),
    ...perLocaleOptional("description", text(10_000)),
    kind: eventKind.optional(),
    location: text(500).nullable().optional(),
    online_url: httpUrl.nullable().optional(),
    starts_at: dateTime.optional(),
    ends_at: dateTime.optional(),
    capacity: eventFields.capacity.optional(),
    active: z.boolean().optional(),
    premium_only: z.boolean().optional(),
    slug: eventFields.slug,
  })
  .superRefine(checkRules);
export type EventUpdateBody = z.infer<typeof eventUpdateBody>;

export const eventItem = z.object({
  ...publishedNaming,
  kind: eventKind,
  location: z.string().nullable(),
  /** null unless the reader is staff or holds a booking. */
  online_url: z.string().nullable(),
  starts_at: z.string(),
  ends_at: z.string(),
  capacity: z.number().int(),
  places_booked: z.number().int(),
  places_left: z.number().int(),
  /** Booking is open: active, not started, places left. */
  bookable: z.boolean(),
  /** Full but not started: a learner may join the waiting list. */
  waitlist_open: z.boolean(),
  /** Learners waiting for a place. */
  waiting_count: z.number().int(),
  active: z.boolean(),
  premium_only: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EventItem = z.infer<typeof eventItem>;

export const eventListQuery = pageQuery.extend({
  /** Staff only: also the events that ended (otherwise only the ones not over yet). */
  include: z.enum(["past"]).optional(),
});
export type EventListQuery = z.infer<typeof eventListQuery>;

export const eventListResponse = envelope(z.object({ events: z.array(eventItem), pagination }));
export type EventListResponse = z.infer<typeof eventListResponse>;
export const eventResponse = envelope(z.object({ event: eventItem }));
export type EventResponse = z.infer<typeof eventResponse>;

/** `GET /v1/events/:id/ics?lang=`: the calendar file's texts in this language (French by default). */
export const eventIcsQuery = z.object({ lang: localeSchema.optional() });

export const eventDeleteQuery = z.object({ force: z.enum(["true", "false"]).default("false") });
export const eventDeleteResponse = envelope(
  z.object({ id: z.string(), cancelled_registrations: z.number().int() }),
);
export type EventDeleteResponse = z.infer<typeof eventDeleteResponse>;

// ---------------------------------------------------------------- registrations

/** WAITING: on the waiting list of a full event, promoted to BOOKED in turn when places free. */
export const REGISTRATION_STATUSES = ["BOOKED", "WAITING", "CANCELLED"] as const;
export const registrationStatus = z.enum(REGISTRATION_STATUSES);
export type RegistrationStatus = z.infer<typeof registrationStatus>;

export const bookingBody = z
  .object({
    event_id: z.uuid(),
    places: z
      .number()
      .int()
      .min(1, "Book one place at least")
      .max(MAX_PLACES_PER_BOOKING, `Book ${MAX_PLACES_PER_BOOKING} places at most`)
      .default(1),
    /** When the event is full: join its waiting list instead of getting 409 EVENT_FULL. */
    waitlist: z.boolean().default(false),
  })
  .meta({ examples: [{ event_id: "5f0c2a9e-7d1b-4c3a-8e6f-1a2b3c4d5e6f", places: 2 }] });
export type BookingBody = z.infer<typeof bookingBody>;

export const registrationItem = z.object({
  id: z.string(),
  event_id: z.string(),
  user_id: z.string(),
  places: z.number().int(),
  status: registrationStatus,
  created_at: z.string(),
  cancelled_at: z.string().nullable(),
  promoted_at: z.string().nullable(),
  /** 1 for the first in line, while WAITING; otherwise null. */
  waiting_position: z.number().int().nullable(),
  /** The event as the owner sees it (with its link once booked). */
  event: eventItem,
});
export type RegistrationItem = z.infer<typeof registrationItem>;

export const registrationResponse = envelope(z.object({ registration: registrationItem }));
export type RegistrationResponse = z.infer<typeof registrationResponse>;

export const myRegistrationsQuery = pageQuery.extend({
  status: registrationStatus.optional(),
  /** true: only events not over yet, soonest first. */
  upcoming: z.enum(["true", "false"]).optional(),
});
export type MyRegistrationsQuery = z.infer<typeof myRegistrationsQuery>;

export const registrationListResponse = envelope(
  z.object({ registrations: z.array(registrationItem), pagination }),
);
export type RegistrationListResponse = z.infer<typeof registrationListResponse>;

/** A registration in the staff list of an event: who booked, without the event repeated. */
export const eventRegistrationItem = registrationItem.omit({ event: true }).extend({
  user: z.object({ id: z.string(), email: z.string(), full_name: z.string().nullable() }),
});
export type EventRegistrationItem = z.infer<typeof eventRegistrationItem>;

export const eventRegistrationsQuery = pageQuery.extend({ status: registrationStatus.optional() });
export type EventRegistrationsQuery = z.infer<typeof eventRegistrationsQuery>;
export const eventRegistrationsResponse = envelope(
  z.object({
    registrations: z.array(eventRegistrationItem),
    pagination,
    places_booked: z.number().int(),
  }),
);
export type EventRegistrationsResponse = z.infer<typeof eventRegistrationsResponse>;

// ---------------------------------------------------------------- configs

export const CONFIG_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const MAX_CONFIG_VALUE_BYTES = 16 * 1024;

/** Size in UTF-8 bytes of a value written as JSON (no TextEncoder: the contract has no DOM/Node types). */
export function jsonByteLength(value: unknown): number {
  const json = JSON.stringify(value) ?? "";
  let bytes = 0;
  for (const char of json) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

export const configKey = z
  .string()
  .regex(
    CONFIG_KEY_PATTERN,
    "Use 1 to 64 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit",
  );

/** Any JSON value (object, array, string, number, boolean or null) of 16 KB at most. */
export const configValue = z
  .unknown()
  .refine((v) => v !== undefined, "A value is required")
  .refine(
    (v) => jsonByteLength(v) <= MAX_CONFIG_VALUE_BYTES,
    `The value must be ${MAX_CONFIG_VALUE_BYTES / 1024} KB of JSON at most`,
  );

export const configKeyParams = z.object({ key: configKey });

export const configBody = z.object({
  key: configKey,
  value: configValue,
  description: text(500).default(""),
});
export type ConfigBody = z.infer<typeof configBody>;

export const configUpdateBody = z
  .object({ value: configValue.optional(), description: text(500).optional() })
  .refine((b) => b.value !== undefined || b.description !== undefined, "Send a value or a description");
export type ConfigUpdateBody = z.infer<typeof configUpdateBody>;

export const configItem = z.object({
  key: z.string(),
  value: z.unknown(),
  description: z.string(),
  updated_at: z.string(),
  updated_by: z.string().nullable(),
});
export type ConfigItem = z.infer<typeof configItem>;

export const configListQuery = pageQuery.extend({ search: z.string().trim().max(64).optional() });
export type ConfigListQuery = z.infer<typeof configListQuery>;
export const configListResponse = envelope(z.object({ configs: z.array(configItem), pagination }));
export type ConfigListResponse = z.infer<typeof configListResponse>;
export const configResponse = envelope(z.object({ config: configItem }));
export type ConfigResponse = z.infer<typeof configResponse>;
export const configDeleteResponse = envelope(z.object({ key: z.string() }));
