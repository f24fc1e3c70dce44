import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { PRIVATE_DIR_MODE } from "../lib/private-files";
import { migrationsDir } from "../paths";
import * as schema from "./schema";

type Schema = typeof schema;
/** The one database type modules use, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** PostgreSQL only: the URL, for connections of their own (the change bus's LISTEN). */
  url?: string;
  /** PGlite: the data folder was created from the build's template on this open. */
  fromTemplate?: boolean;
  /** PGlite: the embedded database itself (backups take its data folder under its lock). */
  pglite?: PGlite;
  /** Tells `observer` the time of every query the driver runs (for /metrics); returns the way to stop. */
  observeQueries(observer: QueryObserver): () => void;
  /** PostgreSQL: the pool's connections now. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * PostgreSQL: runs `fn` while this process holds the advisory lock `key` (on a connection of
   * its own), so that several processes starting at once take turns.
   */
  withLock?<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

type QueryObserver = (seconds: number, failed: boolean) => void;

/**
 * Wraps a driver's `query` so each call is timed: a promise (PGlite, node-postgres without a
 * callback) or a callback (node-postgres's pool uses one). Costs two clock reads per query.
 */
function timed<F extends (...args: never[]) => unknown>(query: F, observers: Set<QueryObserver>): F {
  const observe: QueryObserver = (seconds, failed) => {
    for (const o of observers) o(seconds, failed);
  };
  return function (this: unknown, ...args: unknown[]) {
    if (observers.size === 0) return query.apply(this, args as Parameters<F>);
    const start = process.hrtime.bigint();
    const done = (failed: boolean) => observe(Number(process.hrtime.bigint() - start) / 1e9, failed);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (err: unknown, ...rest: unknown[]) => {
        done(Boolean(err));
        return (callback as (...a: unknown[]) => unknown)(err, ...rest);
      };
      return query.apply(this, args as Parameters<F>);
    }
    const result = query.apply(this, args as Parameters<F>);
    if (result instanceof Promise)
      result.then(
        () => done(false),
        () => done(true),
      );
    return result;
  } as unknown as F;
}

export const migrationsFolder = migrationsDir;

/**
 * A new PGlite folder starts as a copy of `template` when one is given and exists: a data folder
 * made and migrated by `npm run build` (`dist/pglite-template`), which spares the `initdb` and
 * the migrations of a first start. Copied next to the target then renamed, so a start interrupted
 * mid-copy leaves no half database. A folder that already holds a database is never touched.
 */
function copyTemplate(dir: string, template: string | null | undefined): boolean {
  if (!template || !existsSync(path.join(template, "PG_VERSION"))) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  const staging = `${dir}.template-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(template, staging, { recursive: true });
  rmSync(dir, { recursive: true, force: true }); // an empty folder made beforehand
  renameSync(staging, dir);
  return true;
}

/** Opens PostgreSQL when a URL is given, otherwise PGlite in `dir` (or in memory when dir is null). */
export async function openDatabase(opts: {
  url?: string;
  dir?: string | null;
  poolSize?: number;
  /** PGlite only: a migrated data folder that a missing `dir` starts from (see copyTemplate). */
  template?: string | null;
  /** PostgreSQL only: told of a pooled connection the server ended while it sat idle. */
  onIdleError?: (err: Error) => void;
  /** PGlite only: a data folder dumped by PGlite (a backup's `db.tar.gz`) that a new `dir` is made from. */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.url) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    // An idle connection the server ends (a restart, pg_terminate_backend, DROP DATABASE … FORCE)
    // is an 'error' on the pool: without a listener Node would end the whole process. The pool
    // has already dropped that connection and opens a new one at the next query.
    pool.on("error", (err) => opts.onIdleError?.(err));
    const observers = new Set<QueryObserver>();
    // every query, the pool's own included, runs on one of its clients
    pool.on("connect", (client) => {
      client.query = timed(client.query, observers) as typeof client.query;
    });
    const db = drizzle(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      url: opts.url,
      observeQueries: (o) => {
        observers.add(o);
        return () => observers.delete(o);
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async withLock(key, fn) {
        // a transaction-scoped lock: held until COMMIT on this connection, which a pooler in
        // transaction mode (PgBouncer) keeps pinned for as long, unlike a session lock
        // a connection of its own, outside the pool: the work under the lock uses the pool, which
        // may hold a single connection (bench:seed opens one)
        const client = new pg.Client({ connectionString: opts.url });
        // a connection ended under the lock fails the query in progress, which throws below
        client.on("error", (err) => opts.onIdleError?.(err));
        await client.connect();
        try {
          await client.query("begin");
          try {
            await client.query("select pg_advisory_xact_lock($1)", [key]);
            const result = await fn();
            await client.query("commit");
            return result;
          } catch (err) {
            await client.query("rollback").catch(() => undefined);
            throw err;
          }
        } finally {
          await client.end();
        }
      },
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  // pg_trgm: the staff searches (`ilike '%…%'`) use trigram indexes, on PGlite as on PostgreSQL
  const extensions = { pg_trgm };
  let client: PGlite;
  let fromTemplate = false;
  if (opts.dir) {
    mkdirSync(path.dirname(opts.dir), { recursive: true, mode: PRIVATE_DIR_MODE });
    fromTemplate = opts.loadDataDir ? false : copyTemplate(opts.dir, opts.template);
    client = new PGlite(opts.dir, { extensions, loadDataDir: opts.loadDataDir });
  } else {
    client = new PGlite({ extensions });
  }
  await client.waitReady;
  const observers = new Set<QueryObserver>();
  client.query = timed(client.query, observers) as typeof client.query;
  // a transaction's queries go through the transaction object drizzle is handed
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback: Parameters<PGlite["transaction"]>[0]) =>
    transaction((tx) => {
      tx.query = timed(tx.query, observers) as typeof tx.query;
      return callback(tx);
    })) as typeof client.transaction;
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    fromTemplate,
    pglite: client,
    observeQueries: (o) => {
      observers.add(o);
      return () => observers.delete(o);
    },
    close: () => client.close(),
  };
}

/**
 * The `when` of the newest migration in the folder's journal. Drizzle's migrator applies every
 * migration newer than the newest row of `drizzle.__drizzle_migrations`, after reading and
 * hashing every SQL file; comparing that row with the journal answers "anything to apply?" with
 * one small file and one query.
 */
function newestMigration(folder: string): number {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/** The first row of a raw query: node-postgres and PGlite results both carry `rows`. */
async function firstRow<T>(database: Database, query: ReturnType<typeof sql>): Promise<T | undefined> {
  const result = (await database.db.execute(query)) as { rows: T[] };
  return result.rows[0];
}

/** True when the database holds every migration of the folder (drizzle's own criterion). */
export async function isMigrated(database: Database, folder = migrationsFolder): Promise<boolean> {
  const table = await firstRow<{ present: boolean }>(
    database,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!table?.present) return false;
  const last = await firstRow<{ created_at: string | number | null }>(
    database,
    sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`,
  );
  const applied = Number(last?.created_at ?? 0);
  return applied >= newestMigration(folder);
}

/** An arbitrary constant: the advisory lock of "migrating Parlons's schema". */
const MIGRATION_LOCK = 7_034_112;

/**
 * Applies the migrations the database lacks; "skipped" when it has them all (nothing was run).
 * On PostgreSQL, processes starting together (a deployment of several) migrate one at a time:
 * the others wait for the lock, then find nothing left to apply.
 */
export async function migrate(database: Database, folder = migrationsFolder): Promise<"applied" | "skipped"> {
  if (await isMigrated(database, folder)) return "skipped";
  if (database.kind === "postgres") {
    const { migrate: run } = await import("drizzle-orm/node-postgres/migrator");
    const apply = async () => {
      if (await isMigrated(database, folder)) return "skipped" as const;
      // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type; ours is its base.
      await run(database.db as any, { migrationsFolder: folder });
      return "applied" as const;
    };
    return database.withLock ? database.withLock(MIGRATION_LOCK, apply) : apply();
  } else {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type; ours is its base.
    await run(database.db as any, { migrationsFolder: folder });
  }
  return "applied";
}
