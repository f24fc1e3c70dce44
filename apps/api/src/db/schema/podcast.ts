import { pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/**
 * A learner's private podcast feed: one per learner. The feed's URL carries a random secret of
 * which only the SHA-256 is stored (`tokenHash`); rotating writes a new one (the old URL and every
 * episode URL signed with the old hash stop working), revoking deletes the row.
 */
export const podcastFeeds = pgTable(
  "podcast_feeds",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    /** When the secret was last made (the feed's creation, or its last rotation). */
    rotatedAt: timestamp("rotated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("podcast_feeds_user_key").on(t.userId),
    uniqueIndex("podcast_feeds_token_key").on(t.tokenHash),
  ],
);
