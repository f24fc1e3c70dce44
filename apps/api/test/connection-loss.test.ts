import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client";

// PostgreSQL only: the server ends idle pooled connections (a restart, pg_terminate_backend,
// DROP DATABASE … WITH (FORCE)). Without an 'error' listener on the pool, Node ends the process.
const url = process.env.DATABASE_URL;
describe.skipIf(!url)("a pooled connection ended by the server", () => {
  it("is reported, the process lives on and the next query opens another connection", async () => {
    const seen: Error[] = [];
    const database = await openDatabase({ url, poolSize: 2, onIdleError: (err) => seen.push(err) });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const pidOf = async () =>
        ((await database.db.execute(sql`select pg_backend_pid() as pid`)) as { rows: { pid: number }[] })
          .rows[0]?.pid;
      const first = await pidOf();
      expect(first).toBeTypeOf("number");
      await admin.query("select pg_terminate_backend($1)", [first]);
      await expect.poll(() => seen.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(seen[0]?.message).toMatch(/terminat/);
      const second = await pidOf();
      expect(second).toBeTypeOf("number");
      expect(second).not.toBe(first);
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
