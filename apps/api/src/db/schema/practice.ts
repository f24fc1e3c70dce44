import {
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./users";

/**
 * A learner's hands-free session of one day rendered as one MP3 (GET
 * /v1/practice/hands-free/audio.mp3 and the private podcast feed): made once per learner, day and
 * variant (the session's language, kinds and length), then the same file all day, whatever is
 * graded meanwhile. `lessonIds` are the lessons its lines are cut from: a fetch checks that they
 * all still open for the learner (a plan that ends makes the file again without its premium
 * lines). Files of past days are swept (practice's sweep job); the bytes live in the media storage.
 */
export const handsFreeFiles = pgTable(
  "hands_free_files",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The start of the learner's day the session was made for. */
    dayStart: timestamp("day_start", { withTimezone: true }).notNull(),
    variant: text("variant").notNull(),
    storageKey: text("storage_key").notNull(),
    size: integer("size").notNull(),
    seconds: doublePrecision("seconds").notNull(),
    /** "speech" (recall prompts spoken by the server) or "echo_only". */
    mode: text("mode").notNull(),
    items: integer("items").notNull(),
    lessonIds: uuid("lesson_ids").array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.dayStart, t.variant] }),
    // the sweep reads the past days, the storage sweep asks whether a row still uses a key
    index("hands_free_files_day_idx").on(t.dayStart),
    index("hands_free_files_storage_key_idx").on(t.storageKey),
  ],
);
