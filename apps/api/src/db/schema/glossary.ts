import { pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { courses } from "./courses";

/**
 * A course's glossary: what staff say a word of its lines means, in French and in English. One
 * entry per course and term (`termKey`: the term lower-cased, as a tapped word is looked up).
 */
export const glossaryEntries = pgTable(
  "glossary_entries",
  {
    id: id(),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    termKey: text("term_key").notNull(),
    meaningFr: text("meaning_fr").notNull().default(""),
    meaningEn: text("meaning_en").notNull().default(""),
    note: text("note").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("glossary_entries_course_term_key").on(t.courseId, t.termKey)],
);
