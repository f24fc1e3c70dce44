import type { Speak } from "@parlons/contract";
import { SPEAK_CODES } from "@parlons/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/** Mail templates: subject and plain-text body in French and English (Spanish optional), with {{variables}}. */
export const emailTemplates = pgTable(
  "email_templates",
  {
    id: id(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    subjectFr: text("subject_fr").notNull(),
    subjectEn: text("subject_en").notNull(),
    bodyFr: text("body_fr").notNull(),
    bodyEn: text("body_en").notNull(),
    /** Optional ("" = none): a Spanish reader then gets the built-in Spanish text, else English. */
    subjectEs: text("subject_es").notNull().default(""),
    bodyEs: text("body_es").notNull().default(""),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("email_templates_slug_key").on(t.slug)],
);

export const CAMPAIGN_STATUSES = ["DRAFT", "QUEUED", "SENDING", "SENT", "FAILED"] as const;
export const DELIVERY_STATUSES = ["PENDING", "SENDING", "SENT", "FAILED"] as const;

/** Audience filters of a campaign, as validated by the contract's `mailAudience`. */
export interface CampaignAudience {
  role?: string;
  plan?: string;
  status?: "ACTIVE";
  speak?: Speak;
  /** A course's learners (progress in one of its lessons). */
  course_id?: string;
  /** No study activity for this many days. */
  inactive_days?: number;
}

/** A bulk mail: texts copied from the template (or written for it) and the audience it goes to. */
export const mailCampaigns = pgTable(
  "mail_campaigns",
  {
    id: id(),
    templateId: uuid("template_id").references(() => emailTemplates.id, { onDelete: "set null" }),
    subjectFr: text("subject_fr").notNull(),
    subjectEn: text("subject_en").notNull(),
    bodyFr: text("body_fr").notNull(),
    bodyEn: text("body_en").notNull(),
    /** Optional ("" = none): a Spanish reader then gets English (docs/i18n.md). */
    subjectEs: text("subject_es").notNull().default(""),
    bodyEs: text("body_es").notNull().default(""),
    audience: jsonb("audience").$type<CampaignAudience>().notNull().default({}),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("DRAFT"),
    total: integer("total").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /**
     * Recipients who unsubscribed from news through this campaign's link, or before their mail of it
     * went out (not sent, not counted as failed); each counted once (`mail_deliveries.unsubscribed_at`).
     */
    unsubscribed: integer("unsubscribed").notNull().default(0),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("mail_campaigns_created_idx").on(t.createdAt),
    check("mail_campaigns_status", sql`${t.status} in ('DRAFT', 'QUEUED', 'SENDING', 'SENT', 'FAILED')`),
  ],
);

/** Values rendered into a campaign's texts for one recipient, taken when the campaign is queued. */
export interface DeliveryVariables {
  full_name: string;
  plan_name: string;
}

/**
 * One row per recipient of a campaign: the unit of work of the mail worker. `locked_until` is
 * the lease of a SENDING row (another worker takes it over once it has passed) and, on a
 * PENDING row after a failed attempt, the time before which it is not retried.
 */
export const mailDeliveries = pgTable(
  "mail_deliveries",
  {
    id: id(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => mailCampaigns.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    lang: text("lang", { enum: SPEAK_CODES }).notNull(),
    variables: jsonb("variables").$type<DeliveryVariables>().notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /**
     * When the recipient unsubscribed from news through this delivery's link, or when the worker
     * found them unsubscribed before sending it (null: neither).
     */
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mail_deliveries_campaign_user_key").on(t.campaignId, t.userId),
    // the worker's claim: work left, oldest lease first
    index("mail_deliveries_work_idx").on(t.lockedUntil).where(sql`${t.status} in ('PENDING', 'SENDING')`),
    index("mail_deliveries_user_idx").on(t.userId),
    check("mail_deliveries_status", sql`${t.status} in ('PENDING', 'SENDING', 'SENT', 'FAILED')`),
  ],
);

/** A file sent with a transactional mail (an .ics invitation). */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/**
 * Transactional mails (receipts, booking confirmations, reminders), rendered and inserted in the
 * transaction of what they tell, then sent by the outbox worker: a rolled-back payment sends
 * nothing, a committed one is never forgotten. `dedupe_key` makes a second queueing a no-op.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    dedupeKey: text("dedupe_key").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    attachments: jsonb("attachments").$type<OutboxAttachment[]>().notNull().default([]),
    /** Extra headers (List-Unsubscribe of a study reminder). */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mail_outbox_dedupe_key").on(t.dedupeKey),
    index("mail_outbox_work_idx").on(t.lockedUntil).where(sql`${t.status} in ('PENDING', 'SENDING')`),
    check("mail_outbox_status", sql`${t.status} in ('PENDING', 'SENDING', 'SENT', 'FAILED')`),
  ],
);

/** The kinds of non-transactional mail a learner may refuse (the contract's `MAIL_KINDS`). */
export const MAIL_KINDS = ["study_reminders", "news", "new_device"] as const;

/** A learner who refused a kind of mail (one-click unsubscribe or the preferences page). */
export const mailUnsubscribes = pgTable(
  "mail_unsubscribes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check("mail_unsubscribes_kind", sql`${t.kind} in ('study_reminders', 'news', 'new_device')`),
  ],
);
