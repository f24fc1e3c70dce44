import { sql } from "drizzle-orm";
import {
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { lessonCues, lessons } from "./lessons";
import { users } from "./users";

/** A learner's row about one lesson line (each table gets its own column objects). */
const learnerLine = () => ({
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  cueId: uuid("cue_id")
    .notNull()
    .references(() => lessonCues.id, { onDelete: "cascade" }),
  /** The cue's lesson (a cue never moves): what the entitlement rule is asked about. */
  lessonId: uuid("lesson_id")
    .notNull()
    .references(() => lessons.id, { onDelete: "cascade" }),
});

/**
 * A learner's review card for one lesson line, or for one word tapped in a line (a word card:
 * `word` set, the line being its context): the FSRS memory state that `ts-fsrs` reads and writes
 * (its `Card` fields, one column each). One card per learner and line, one per learner, language
 * and word.
 */
export const reviewCards = pgTable(
  "review_cards",
  {
    id: id(),
    ...learnerLine(),
    due: timestamp("due", { withTimezone: true }).notNull().defaultNow(),
    stability: doublePrecision("stability").notNull().default(0),
    difficulty: doublePrecision("difficulty").notNull().default(0),
    elapsedDays: integer("elapsed_days").notNull().default(0),
    scheduledDays: integer("scheduled_days").notNull().default(0),
    learningSteps: integer("learning_steps").notNull().default(0),
    reps: integer("reps").notNull().default(0),
    lapses: integer("lapses").notNull().default(0),
    /** ts-fsrs State: 0 New, 1 Learning, 2 Review, 3 Relearning. */
    state: smallint("state").notNull().default(0),
    lastReview: timestamp("last_review", { withTimezone: true }),
    /** A word card's word (lower case, as `wordKey` makes it); null on a line's card. */
    word: text("word"),
    /** The language of a word card's course (ISO 639-1): known words are counted per language. */
    wordLanguage: text("word_language"),
    /** The meaning the learner saw when adding the word. */
    wordMeaningFr: text("word_meaning_fr"),
    wordMeaningEn: text("word_meaning_en"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("review_cards_user_cue_key").on(t.userId, t.cueId).where(sql`${t.word} is null`),
    uniqueIndex("review_cards_user_word_key")
      .on(t.userId, t.wordLanguage, t.word)
      .where(sql`${t.word} is not null`),
    index("review_cards_user_due_idx").on(t.userId, t.due),
    index("review_cards_cue_idx").on(t.cueId),
    index("review_cards_lesson_idx").on(t.lessonId),
  ],
);

/**
 * One row per grade, keyed by the id the client chose for it: a replayed grade (an offline
 * queue sending again) finds its id taken and changes nothing.
 */
export const reviewLogs = pgTable(
  "review_logs",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    cardId: uuid("card_id")
      .notNull()
      .references(() => reviewCards.id, { onDelete: "cascade" }),
    /** 1 Again, 2 Hard, 3 Good, 4 Easy. */
    rating: smallint("rating").notNull(),
    /** State of the card before this grade. */
    state: smallint("state").notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull(),
    dueBefore: timestamp("due_before", { withTimezone: true }).notNull(),
    dueAfter: timestamp("due_after", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("review_logs_user_reviewed_idx").on(t.userId, t.reviewedAt),
    index("review_logs_reviewed_idx").on(t.reviewedAt),
    index("review_logs_card_idx").on(t.cardId),
    // the analytics job adds the grades written since its last run, whatever time they were made
    index("review_logs_created_idx").on(t.createdAt),
  ],
);

/**
 * A learner's own recording of a lesson line ("repeat after me"), kept on their account because
 * they chose to (otherwise recordings stay in the browser). One per learner and line: keeping
 * another replaces it. `storageKey` names the bytes in the media storage (disk or S3).
 */
export const lineRecordings = pgTable(
  "line_recordings",
  {
    id: id(),
    ...learnerLine(),
    storageKey: text("storage_key").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("line_recordings_user_cue_key").on(t.userId, t.cueId),
    index("line_recordings_user_lesson_idx").on(t.userId, t.lessonId),
    // the storage sweep asks whether a row still uses a key
    index("line_recordings_storage_key_idx").on(t.storageKey),
  ],
);

/**
 * Lines a learner took out of their deck: finishing their lesson again leaves them out (adding the
 * line by hand from the transcript puts it back and forgets this row).
 */
export const reviewRemovedLines = pgTable(
  "review_removed_lines",
  {
    ...learnerLine(),
    removedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cueId] })],
);
