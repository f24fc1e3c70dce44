import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/** Uploaded files. `path` is the storage key (random name), never the client's file name. */
export const media = pgTable(
  "media",
  {
    id: id(),
    ownerId: uuid("owner_id").references(() => users.id, { onDelete: "set null" }),
    type: text("type", { enum: ["audio", "image"] }).notNull(),
    path: text("path").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    /** Whole seconds, audio only. */
    duration: integer("duration"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("media_path_key").on(t.path), index("media_owner_idx").on(t.ownerId)],
);

/**
 * Stored files on their way out (media and kept recordings). A key is marked in the transaction
 * that removes the row using it, and before the bytes of a new upload are written; the mark goes
 * once the file is deleted (or, for an upload, once its row is written). A process that stops in
 * between leaves the mark, and the hourly sweep (jobs/storage-sweep.ts) deletes the file then,
 * unless a row uses the key after all.
 */
export const storageTrash = pgTable("storage_trash", {
  key: text("key").primaryKey(),
  createdAt: createdAt(),
});
