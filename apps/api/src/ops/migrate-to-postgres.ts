import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "../db/client";
import { migrate } from "../db/client";
import { OperationRefused, rowCounts } from "./snapshot";

type PgClient = import("pg").Client;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const BATCH = 500;

/**
 * Copies every row of an embedded installation's database into an empty PostgreSQL database.
 * The target gets the schema from the same migrations; rows travel as JSON (`row_to_json` on
 * PGlite, `json_populate_recordset` on PostgreSQL), which keeps every type's exact text form
 * (timestamps to the microsecond, numerics, jsonb, arrays) across PostgreSQL versions. The copy is
 * one transaction with the foreign keys made DEFERRABLE for its length (checked at the end, then
 * set back as they were), so tables go in any order and a failure leaves the target empty.
 * Sequences are set to the source's values.
 */
export async function migrateToPostgres(opts: {
  source: Database;
  target: Database;
  targetClient: PgClient;
  log: (line: string) => void;
}): Promise<{ source: Record<string, number>; target: Record<string, number> }> {
  const pglite = opts.source.pglite;
  if (!pglite) throw new Error("the source is not the embedded database");
  const pg = opts.targetClient;

  const query = (sql: string, params?: unknown[]) => pg.query(sql, params);
  const nonEmpty = await nonEmptyTables(pg);
  if (nonEmpty.length > 0)
    throw new OperationRefused(
      `The target database is not empty (rows in ${nonEmpty.slice(0, 5).join(", ")}${nonEmpty.length > 5 ? ", …" : ""}): ` +
        "migrate into a new, empty database (createdb parlons).",
    );

  // both at the schema of this release: the source as `npm start` would leave it, the target new
  await migrate(opts.source);
  await migrate(opts.target);

  const tables = (
    await pglite.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' order by tablename",
    )
  ).rows.map((r) => r.tablename);
  const source = await rowCounts((q) => pglite.query(q));

  await query("begin");
  try {
    const foreignKeys = (
      await query(
        `select c.conrelid::regclass::text as tbl, c.conname as name from pg_constraint c
         join pg_namespace n on n.oid = c.connamespace
         where c.contype = 'f' and n.nspname = 'public' and not c.condeferrable`,
      )
    ).rows as { tbl: string; name: string }[];
    for (const fk of foreignKeys)
      await query(`alter table ${fk.tbl} alter constraint ${quote(fk.name)} deferrable initially deferred`);
    await query("set constraints all deferred");

    for (const table of tables) {
      const copied = await copyTable(pglite, pg, table);
      if (copied > 0) opts.log(`  ${table}: ${copied} rows`);
    }
    await copySequences(pglite, pg);

    await query("set constraints all immediate"); // every foreign key checked here
    for (const fk of foreignKeys)
      await query(
        `alter table ${fk.tbl} alter constraint ${quote(fk.name)} not deferrable initially immediate`,
      );
    await query("commit");
  } catch (err) {
    await query("rollback").catch(() => undefined);
    throw err;
  }

  const target = await rowCounts(async (q) => ({ rows: (await pg.query(q)).rows }));
  const differ = tables.filter((t) => source[t] !== target[t]);
  if (differ.length > 0) throw new Error(`row counts differ after the copy in ${differ.join(", ")}`);
  return { source, target };
}

async function nonEmptyTables(pg: PgClient): Promise<string[]> {
  const tables = (
    await pg.query<{ name: string }>(
      `select quote_ident(schemaname) || '.' || quote_ident(tablename) as name from pg_tables
       where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`,
    )
  ).rows.map((r) => r.name);
  const full: string[] = [];
  for (const name of tables) {
    if ((await pg.query(`select exists (select from ${name}) as e`)).rows[0]?.e) full.push(name);
  }
  return full;
}

/** Copies one table in batches through a cursor on the source; returns the rows copied. */
async function copyTable(pglite: PGlite, pg: PgClient, table: string): Promise<number> {
  const columns = (
    await pg.query<{ name: string }>(
      `select attname as name from pg_attribute
       where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
       order by attnum`,
      [`public.${quote(table)}`],
    )
  ).rows.map((r) => quote(r.name));
  const list = columns.join(", ");
  const insert = `insert into public.${quote(table)} (${list}) overriding system value
    select ${list} from json_populate_recordset(null::public.${quote(table)}, $1::json)`;
  let copied = 0;
  await pglite.transaction(async (tx) => {
    await tx.query(
      `declare rows_out no scroll cursor for select row_to_json(t)::text as r from public.${quote(table)} t`,
    );
    for (;;) {
      const batch = await tx.query<{ r: string }>(`fetch ${BATCH} from rows_out`);
      if (batch.rows.length === 0) break;
      await pg.query(insert, [`[${batch.rows.map((row) => row.r).join(",")}]`]);
      copied += batch.rows.length;
    }
    await tx.query("close rows_out");
  });
  return copied;
}

/** Every sequence of the public schema takes the source's position (identity and serial columns). */
async function copySequences(pglite: PGlite, pg: PgClient): Promise<void> {
  const sequences = (
    await pglite.query<{ name: string }>(
      "select quote_ident(sequencename) as name from pg_sequences where schemaname = 'public'",
    )
  ).rows;
  for (const { name } of sequences) {
    const state = (
      await pglite.query<{ last_value: string; is_called: boolean }>(
        `select last_value::text, is_called from public.${name}`,
      )
    ).rows[0];
    if (state)
      await pg.query(`select setval('public.${name}', $1::bigint, $2)`, [state.last_value, state.is_called]);
  }
}
