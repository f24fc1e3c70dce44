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

/** Mail templates: subject and plain-text body in French and English, with {{variables}}. */
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
  speak?: "FR" | "EN";
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
    audience: jsonb("audience").$type<CampaignAudience>().notNull().default({}),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("DRAFT"),
    total: integer("total").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    failed: integer("failed").notNull().default(0),
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
    lang: text("lang", { enum: ["FR", "EN"] }).notNull(),
    variables: jsonb("variables").$type<DeliveryVariables>().notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
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
