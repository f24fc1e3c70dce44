import pg from "pg";
import { expect } from "vitest";
import type { Database } from "../../src/db/client";

/**
 * Runs `race` (requests started together) and, on PostgreSQL, proves they raced: a connection of
 * its own reads pg_stat_activity over and over while they run, and at some moment two transactions
 * or more of this database must have been open at once. Without it a race test can pass because
 * its requests ran one after another, as they do on PGlite's single connection (where there is
 * nothing to prove: the race just runs). Returns the race's result.
 */
export async function raced<T>(database: Database, race: () => Promise<T>): Promise<T> {
  if (database.kind !== "postgres" || !database.url) return race();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let running = true;
  let most = 0;
  const watch = (async () => {
    while (running) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`,
      );
      most = Math.max(most, rows[0]?.n ?? 0);
    }
  })();
  try {
    return await race();
  } finally {
    running = false;
    await watch;
    await client.end();
    expect(most, "transactions of the race open at the same moment on PostgreSQL").toBeGreaterThanOrEqual(2);
  }
}
