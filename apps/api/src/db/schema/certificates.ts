import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id } from "./columns";
import { courses } from "./courses";
import { users } from "./users";

/**
 * A certificate of completion: one per learner and course, issued when every active lesson of
 * the course is done. What it says (name, titles) is copied at issue time, like a receipt, so
 * that later edits of the profile or the course do not rewrite a document already handed out.
 */
export const certificates = pgTable(
  "certificates",
  {
    id: id(),
    /** `K7QM-4XPD`: what a verifier types; unique. */
    code: text("code").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: uuid("course_id").references(() => courses.id, { onDelete: "set null" }),
    learnerName: text("learner_name").notNull(),
    courseTitleFr: text("course_title_fr").notNull(),
    courseTitleEn: text("course_title_en").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: uuid("revoked_by").references(() => users.id, { onDelete: "set null" }),
    revokeReason: text("revoke_reason"),
  },
  (t) => [
    uniqueIndex("certificates_code_key").on(t.code),
    uniqueIndex("certificates_user_course_key").on(t.userId, t.courseId),
    index("certificates_issued_idx").on(t.issuedAt.desc()),
  ],
);
