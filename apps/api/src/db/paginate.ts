import type { PageQuery } from "@parlons/contract";
import { type AnyColumn, count, ilike, or, type SQL } from "drizzle-orm";
import type { PgSelect, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";

/**
 * The paginated list query, written once: a page of an ordered select and the count of every
 * row its filter matches, run together, in the `{ page, pageSize, total }` envelope of the
 * contract's `pagination`. Services build the filter and the order; this takes the page.
 */

/** `text` as a LIKE pattern that matches it literally (`%`, `_` and `\` lose their meaning). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Rows where any of `columns` contains `text` (case-insensitive); no filter without a text. */
export function containing(text: string | null | undefined, columns: AnyColumn[]): SQL | undefined {
  if (!text) return undefined;
  const pattern = `%${escapeLike(text)}%`;
  return or(...columns.map((column) => ilike(column, pattern)));
}

/** The rows a page skips. */
export const pageOffset = (query: PageQuery): number => (query.page - 1) * query.pageSize;

/**
 * One page of `rows` (a `.$dynamic()` select, ordered) with `total`, the count of the same
 * filter (`select({ n: count() })`), run at the same time.
 */
export async function paginate<Q extends PgSelect>(
  query: PageQuery,
  rows: Q,
  total: PromiseLike<{ n: number }[]>,
): Promise<{ rows: Awaited<Q>; pagination: { page: number; pageSize: number; total: number } }> {
  const [items, [counted]] = await Promise.all([rows.limit(query.pageSize).offset(pageOffset(query)), total]);
  return {
    rows: items,
    pagination: { page: query.page, pageSize: query.pageSize, total: counted?.n ?? 0 },
  };
}

/** A page of the whole rows of one table where `where` holds (every row without it), in `order`. */
export async function pageOf<T extends PgTable>(
  db: DbOrTx,
  query: PageQuery,
  table: T,
  where: SQL | undefined,
  order: SQL[],
): Promise<{ rows: T["$inferSelect"][]; pagination: { page: number; pageSize: number; total: number } }> {
  const from = table as PgTable;
  const { rows, pagination } = await paginate(
    query,
    db
      .select()
      .from(from)
      .where(where)
      .orderBy(...order)
      .$dynamic(),
    db.select({ n: count() }).from(from).where(where),
  );
  return { rows: rows as T["$inferSelect"][], pagination };
}
