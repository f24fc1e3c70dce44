import { slugify } from "@parlons/contract";
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../db/client";
import { conflict } from "./errors";

/**
 * The first slug of `table` free among `base`, `base-2`, `base-3`… (`root` when the title gives
 * no slug). 409 when the first thousand are all taken.
 */
async function uniqueSlug(
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

/** 409 when another row of `table` already has `slug`. */
export async function assertSlugFree(
  tx: DbOrTx,
  table: PgTable & { id: PgColumn; slug: PgColumn },
  slug: string,
): Promise<void> {
  const [taken] = await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(eq(table.slug, slug));
  if (taken) throw conflict("This slug is taken");
}

/** The slug a new row asked for (409 when taken) or, without one, the first free slug from its title. */
export async function chooseSlug(
  tx: DbOrTx,
  table: PgTable & { id: PgColumn; slug: PgColumn },
  asked: string | undefined | null,
  title: string,
  root: string,
): Promise<string> {
  if (!asked) return uniqueSlug(tx, table, slugify(title), root);
  await assertSlugFree(tx, table, asked);
  return asked;
}
