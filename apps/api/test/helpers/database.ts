import { sql } from "drizzle-orm";
import { type Database, migrate, openDatabase } from "../../src/db/client";

let shared: Promise<Database> | undefined;

/** This worker's database: PGlite in memory, or a fresh PostgreSQL database when DATABASE_URL is set. */
export function testDatabase(): Promise<Database> {
  shared ??= open();
  return shared;
}

async function open(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ dir: null });
    await migrate(database);
    return database;
  }
  const { default: pg } = await import("pg");
  const base = new URL(url);
  const name = `${base.pathname.replace(/^\//, "") || "parlons"}_w${process.env.VITEST_POOL_ID ?? "0"}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  // A test database is thrown away at the end: a commit need not wait for the WAL to reach the
  // disk (same answers, same locking; only a crash could lose the last commits). On this machine
  // that wait was most of the suite's time on PostgreSQL (docs/decisions.md).
  await admin.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  await admin.end();
  base.pathname = `/${name}`;
  const database = await openDatabase({ url: base.toString(), poolSize: 5 });
  await migrate(database);
  return database;
}

/** Empties every table of the public schema; base data is seeded again by the caller. */
export async function truncateAll(database: Database): Promise<void> {
  const result = await database.db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { tablename: string }[] }).rows) as {
    tablename: string;
  }[];
  if (rows.length === 0) return;
  const list = rows.map((r) => `"public"."${r.tablename}"`).join(", ");
  await database.db.execute(sql.raw(`TRUNCATE ${list} RESTART IDENTITY CASCADE`));
}
