import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { handsFreeFiles } from "../../db/schema/practice";
import type { KeysInUse, StorageTrash } from "../media/trash";

export type HandsFreeFileRow = typeof handsFreeFiles.$inferSelect;
/** The learner's day, and the variant of the session (its query), that a file is made for. */
export interface SessionSlot {
  userId: string;
  dayStart: Date;
  variant: string;
}

/**
 * Files of days that began more than this long ago are swept: a learner's day lasts 24 hours from
 * its start, and a day start a client gives may be a few hours off UTC midnight.
 */
const KEEP_DAYS_MS = 48 * 3_600_000;
const BATCH = 200;

const slotIs = (slot: SessionSlot) =>
  and(
    eq(handsFreeFiles.userId, slot.userId),
    eq(handsFreeFiles.dayStart, slot.dayStart),
    eq(handsFreeFiles.variant, slot.variant),
  );

/** The storage sweep's question to this module: which of these keys a session file still uses. */
export const sessionKeysInUse: KeysInUse = async (db, keys) =>
  (
    await db
      .select({ key: handsFreeFiles.storageKey })
      .from(handsFreeFiles)
      .where(inArray(handsFreeFiles.storageKey, keys))
  ).map((r) => r.key);

/**
 * The rows of the session MP3s made (table `hands_free_files`), their bytes in the media storage.
 * A render marks its key in the storage trash before it writes the file and unmarks it with its
 * row, so that a process stopped in between leaves nothing behind for long.
 */
export function createHandsFreeFiles(deps: {
  db: Db;
  trash: Pick<StorageTrash, "mark" | "unmark" | "empty">;
}) {
  const { db, trash } = deps;
  return {
    async find(slot: SessionSlot): Promise<HandsFreeFileRow | undefined> {
      const [row] = await db.select().from(handsFreeFiles).where(slotIs(slot));
      return row;
    },

    /** A key about to be written: deleted by the storage sweep unless a row comes to use it. */
    reserve: (key: string) => trash.mark([key]),

    /** A reserved key no render will use (nothing to practise, or the render failed): its file goes. */
    release: async (key: string) => void (await trash.empty([key])),

    /**
     * Makes `row` the slot's file, unless another render (another process) made one meanwhile
     * that is not `replacing`: then theirs stays and this one's file goes. Answers the slot's row.
     */
    async freeze(row: HandsFreeFileRow, replacing: string | null): Promise<HandsFreeFileRow> {
      const [won] = await db
        .insert(handsFreeFiles)
        .values(row)
        .onConflictDoUpdate({
          target: [handsFreeFiles.userId, handsFreeFiles.dayStart, handsFreeFiles.variant],
          set: {
            storageKey: row.storageKey,
            size: row.size,
            seconds: row.seconds,
            mode: row.mode,
            items: row.items,
            lessonIds: row.lessonIds,
            createdAt: row.createdAt,
          },
          setWhere: sql`${handsFreeFiles.storageKey} = ${replacing ?? ""}`,
        })
        .returning();
      if (!won) {
        await trash.empty([row.storageKey]);
        return (await this.find(row)) ?? row;
      }
      await trash.unmark([row.storageKey]);
      if (replacing) {
        await trash.mark([replacing]);
        await trash.empty([replacing]);
      }
      return won;
    },

    /** Forgets the slot's file (its lessons closed and nothing is left to practise). */
    async drop(row: HandsFreeFileRow): Promise<void> {
      await db.delete(handsFreeFiles).where(and(slotIs(row), eq(handsFreeFiles.storageKey, row.storageKey)));
      await trash.mark([row.storageKey]);
      await trash.empty([row.storageKey]);
    },

    /** Deletes the files of days that began before `now - KEEP_DAYS_MS`; how many went. */
    async sweep(now: Date): Promise<number> {
      const cutoff = new Date(now.getTime() - KEEP_DAYS_MS);
      let deleted = 0;
      for (;;) {
        const keys = await db.transaction(async (tx) => {
          const rows = await tx
            .select({ key: handsFreeFiles.storageKey })
            .from(handsFreeFiles)
            .where(lt(handsFreeFiles.dayStart, cutoff))
            .limit(BATCH);
          const found = rows.map((r) => r.key);
          if (found.length === 0) return found;
          await trash.mark(found, tx);
          await tx.delete(handsFreeFiles).where(inArray(handsFreeFiles.storageKey, found));
          return found;
        });
        if (keys.length === 0) break;
        deleted += await trash.empty(keys);
        if (keys.length < BATCH) break;
      }
      return deleted;
    },
  };
}
export type HandsFreeFiles = ReturnType<typeof createHandsFreeFiles>;
