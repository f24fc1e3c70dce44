import type { Translations } from "@parlons/contract";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";

export const courses = pgTable(
  "courses",
  {
    id: id(),
    slug: text("slug").notNull(),
    titleFr: text("title_fr").notNull(),
    titleEn: text("title_en").notNull(),
    descriptionFr: text("description_fr").notNull().default(""),
    descriptionEn: text("description_en").notNull().default(""),
    /** Title and description in the locales beyond French and English (`{ es: { title, description } }`). */
    translations: jsonb("translations").$type<Translations<"title" | "description">>().notNull().default({}),
    /** ISO 639-1 code of the language taught. */
    targetLanguage: text("target_language").notNull(),
    level: text("level", { enum: ["A1", "A2", "B1", "B2", "C1", "C2"] }).notNull(),
    /** Storage key of the cover image (a media row), or null. */
    coverPath: text("cover_path"),
    active: boolean("active").notNull().default(false),
    /** A draft scheduled to go live: the publish job makes it active at this time (null: none). */
    publishAt: timestamp("publish_at", { withTimezone: true }),
    popular: boolean("popular").notNull().default(false),
    position: integer("position").notNull().default(0),
    /** How the lessons open over time: all at once, in order, or one every dripDays days. */
    dripMode: text("drip_mode", { enum: ["open", "sequence", "days"] })
      .notNull()
      .default("open"),
    dripDays: integer("drip_days").notNull().default(7),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("courses_slug_key").on(t.slug),
    index("courses_active_position_idx").on(t.active, t.position),
    // the publishing job (every 15 s, each process) reads the scheduled courses only
    index("courses_publish_at_idx").on(t.publishAt).where(sql`${t.publishAt} is not null`),
  ],
);
