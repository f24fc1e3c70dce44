import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { migrationsDir } from "../paths";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The one database type modules use, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** PostgreSQL only: the URL, for connections of their own (the change bus's LISTEN). */
  url?: string;
  close(): Promise<void>;
}

export const migrationsFolder = migrationsDir;

/** Opens PostgreSQL when a URL is given, otherwise PGlite in `dir` (or in memory when dir is null). */
export async function openDatabase(opts: {
  url?: string;
  dir?: string | null;
  poolSize?: number;
}): Promise<Database> {
  if (opts.url) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    const db = drizzle(pool, { schema }) as unknown as Db;
    return { db, kind: "postgres", url: opts.url, close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  // pg_trgm: the staff searches (`ilike '%…%'`) use trigram indexes, on PGlite as on PostgreSQL
  const extensions = { pg_trgm };
  let client: PGlite;
  if (opts.dir) {
    mkdirSync(path.dirname(opts.dir), { recursive: true });
    client = new PGlite(opts.dir, { extensions });
  } else {
    client = new PGlite({ extensions });
  }
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close() };
}

export async function migrate(database: Database): Promise<void> {
  if (database.kind === "postgres") {
    const { migrate: run } = await import("drizzle-orm/node-postgres/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type; ours is its base.
    await run(database.db as any, { migrationsFolder });
  } else {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type; ours is its base.
    await run(database.db as any, { migrationsFolder });
  }
}
