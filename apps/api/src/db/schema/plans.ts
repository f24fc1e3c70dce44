import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** Subscription plans. Premium means amount > 0; exactly one row is the default free plan. */
export const plans = pgTable(
  "plans",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    nameFr: text("name_fr").notNull(),
    descriptionEn: text("description_en").notNull().default(""),
    descriptionFr: text("description_fr").notNull().default(""),
    amount: integer("amount").notNull().default(0),
    currency: text("currency").notNull().default("EUR"),
    interval: text("interval", { enum: ["month", "year", "once"] })
      .notNull()
      .default("month"),
    active: boolean("active").notNull().default(true),
    isDefault: boolean("is_default").notNull().default(false),
    featuresEn: jsonb("features_en").$type<string[]>().notNull().default([]),
    featuresFr: jsonb("features_fr").$type<string[]>().notNull().default([]),
    position: integer("position").notNull().default(0),
    paypalProductId: text("paypal_product_id"),
    paypalPlanId: text("paypal_plan_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("plans_one_default_key").on(t.isDefault).where(sql`${t.isDefault}`)],
);
