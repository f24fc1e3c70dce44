import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/**
 * A learner's data request: a copy of their data (an export job when the archive is large) or
 * the erasure of their account. Kept after an erasure (user_id and email cleared) as the proof
 * that it was done.
 */
export const dataRequests = pgTable(
  "data_requests",
  {
    id: id(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The e-mail when the request was made; cleared when the account is erased. */
    email: text("email"),
    kind: text("kind", { enum: ["export", "erasure"] }).notNull(),
    status: text("status", { enum: ["pending", "running", "done", "failed"] })
      .notNull()
      .default("pending"),
    progress: integer("progress").notNull().default(0),
    /** sha256 of the download link's token (an export job that is done). */
    tokenHash: text("token_hash"),
    /** The archive's file name under the data folder's exports/. */
    file: text("file"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    error: text("error"),
    requestedAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Staff who ran it by hand, if any. */
    processedBy: uuid("processed_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("data_requests_user_idx").on(t.userId, t.requestedAt),
    index("data_requests_requested_idx").on(t.requestedAt.desc()),
    check("data_requests_progress", sql`${t.progress} between 0 and 100`),
  ],
);
