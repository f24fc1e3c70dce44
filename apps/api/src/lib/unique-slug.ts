import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../db/client";
import { conflict } from "./errors";

/**
 * The first slug of `table` free among `base`, `base-2`, `base-3`… (`root` when the title gives
 * no slug). 409 when the first thousand are all taken.
 */
export async function uniqueSlug(
  tx: DbOrTx,
  table: PgTable & { id: PgColumn; slug: PgColumn },
  base: string,
  root: string,
): Promise<string> {
  const first = base || root;
  for (let i = 1; i < 1000; i += 1) {
    const candidate = i === 1 ? first : `${first}-${i}`;
    const [taken] = await tx
      .select({ id: table.id })
      .from(table as PgTable)
      .where(eq(table.slug, candidate));
    if (!taken) return candidate;
  }
  throw conflict("No free slug for this title");
}
