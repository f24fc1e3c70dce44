import type { PlanTranslations } from "@parlons/contract";
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
import { courses } from "./courses";

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
    /** Name, description and features in the locales beyond French and English. */
    translations: jsonb("translations").$type<PlanTranslations>().notNull().default({}),
    position: integer("position").notNull().default(0),
    /** "all": the plan opens every course; "courses": only those in `plan_courses` (one: a single-course plan). */
    scope: text("scope", { enum: ["all", "courses"] })
      .notNull()
      .default("all"),
    /** Free days a first subscription starts with (0: none); a learner has one trial, ever. */
    trialDays: integer("trial_days").notNull().default(0),
    paypalProductId: text("paypal_product_id"),
    paypalPlanId: text("paypal_plan_id"),
    /** The PayPal plan of the same price that starts with the trial cycle (null: no trial, or not made yet). */
    paypalTrialPlanId: text("paypal_trial_plan_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("plans_one_default_key").on(t.isDefault).where(sql`${t.isDefault}`),
    check("plans_trial_days", sql`${t.trialDays} between 0 and 365`),
  ],
);

/** The courses a plan of scope "courses" opens. */
export const planCourses = pgTable(
  "plan_courses",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.planId, t.courseId] }), index("plan_courses_course_idx").on(t.courseId)],
);
