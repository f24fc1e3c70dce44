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

/**
 * Where recently read deep pages of a list start: the sort key of a page's first row, by list
 * (its filter) and offset. The next read of that page seeks to it through the list's index
 * (keyset) instead of walking the `offset` rows before it. The owner clears it on every write of
 * the list's rows it makes; a write elsewhere (another process) is seen after `ttlMs` at most, as
 * the totals of a count cache are: until then the page starts where it started.
 */
export function createPageStarts<K>(opts: { ttlMs: number; minOffset: number; maxKeys?: number }) {
  const entries = new Map<string, { key: K; until: number }>();
  const maxKeys = opts.maxKeys ?? 2_000;
  return {
    /** The start of the page at `offset` of `list`, when known (only deep pages are kept). */
    get(list: string, offset: number, now = Date.now()): K | undefined {
      if (offset < opts.minOffset) return undefined;
      const hit = entries.get(`${offset} ${list}`);
      return hit && hit.until > now ? hit.key : undefined;
    },
    set(list: string, offset: number, key: K, now = Date.now()) {
      if (offset < opts.minOffset) return;
      if (entries.size >= maxKeys) entries.clear();
      entries.set(`${offset} ${list}`, { key, until: now + opts.ttlMs });
    },
    clear() {
      entries.clear();
    },
  };
}
