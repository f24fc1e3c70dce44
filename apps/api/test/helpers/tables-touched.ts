import type { Db } from "../../src/db/client";

interface Session {
  prepareQuery(query: { sql: string }, ...rest: unknown[]): unknown;
}

/**
 * Runs `fn` and tells, with its result, which tables its SQL read (`from`, `join`) and which it
 * changed (`update`, `delete from`), on `db` and on the transactions opened from it: every drizzle
 * query goes through its session's `prepareQuery`, and a transaction's session is another instance
 * of the same class, whose prototype is patched while `fn` runs. Queries run meanwhile by anything
 * else in this process are counted too: call it with nothing else in flight.
 */
export async function tablesTouched<T>(
  db: Db,
  fn: () => Promise<T>,
): Promise<{ result: T; read: Set<string>; changed: Set<string> }> {
  const read = new Set<string>();
  const changed = new Set<string>();
  const proto = Object.getPrototypeOf((db as unknown as { session: Session }).session) as Session;
  const original = proto.prepareQuery;
  proto.prepareQuery = function (this: Session, query, ...rest) {
    for (const [, table] of query.sql.matchAll(/\b(?:update|delete\s+from)\s+"(\w+)"/gi))
      changed.add(table as string);
    for (const [, table] of query.sql.matchAll(/(?<!delete\s+)\b(?:from|join)\s+"(\w+)"/gi))
      read.add(table as string);
    return original.call(this, query, ...rest);
  };
  try {
    return { result: await fn(), read, changed };
  } finally {
    proto.prepareQuery = original;
  }
}
