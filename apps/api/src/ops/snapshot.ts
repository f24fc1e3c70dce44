import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import * as tar from "tar";
import { openDatabase } from "../db/client";
import { PRIVATE_FILE_MODE } from "../lib/private-files";

/**
 * A snapshot of an embedded installation (DATA_DIR) in one tar file:
 *   parlons-backup.json   what it is: format, time, PGlite and PostgreSQL versions
 *   db.tar.gz             the PGlite data folder, dumped by PGlite itself under its query lock
 *   media/, mail/, jwt-secret, …   every other file of DATA_DIR as it was at that instant
 * The database and the files are taken in one exclusive section of PGlite (no transaction and no
 * query in progress): files are hard-linked there (instant, and later deletions do not reach the
 * links), then packed once the lock is released. See docs/decisions.md.
 */
const MANIFEST = "parlons-backup.json";
const DB_ENTRY = "db.tar.gz";
const FORMAT = 1;

export interface SnapshotManifest {
  kind: "parlons-backup";
  format: number;
  createdAt: string;
  pglite: string;
  postgres: string;
  /** Files of DATA_DIR besides the database (media, mail outbox, secrets). */
  files: number;
}

/** A refusal the operator can act on: printed as it is, without a stack trace. */
export class OperationRefused extends Error {}

/** Names of DATA_DIR (first level) that are not copied as files: the database and work folders. */
function skipped(name: string, top: boolean): boolean {
  if (name === ".tmp") return true; // uploads in progress
  if (!top) return false;
  return name === "db" || name.startsWith("db.") || name.startsWith(".backup-") || name.endsWith(".sock");
}

/** Hard-links (or copies, across file systems) every file of `from` into `to`; returns the count. */
function linkTree(from: string, to: string, top = true): number {
  let count = 0;
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (skipped(entry.name, top)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) count += linkTree(source, target, false);
    else if (entry.isFile()) {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
      count += 1;
    }
  }
  return count;
}

/** Rows per table of the public schema. */
export async function rowCounts(
  query: (sql: string) => Promise<{ rows: unknown[] }>,
): Promise<Record<string, number>> {
  const tables = (
    (await query(`select tablename from pg_tables where schemaname = 'public' order by tablename`)).rows as {
      tablename: string;
    }[]
  ).map((r) => r.tablename);
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const result = await query(`select count(*)::int as n from "public"."${table.replaceAll('"', '""')}"`);
    rows[table] = (result.rows[0] as { n: number }).n;
  }
  return rows;
}

function pgliteVersion(): string {
  try {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    const pkg = path.join(path.dirname(entry), "..", "package.json");
    return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** Writes a snapshot of the installation whose database is `pglite` and whose folder is `dataDir`. */
export async function writeSnapshot(
  pglite: PGlite,
  dataDir: string,
  file: string,
): Promise<SnapshotManifest> {
  const staging = path.join(dataDir, `.backup-${process.pid}-${Date.now()}`);
  const partial = `${file}.partial`;
  try {
    // a checkpoint first: the dumped folder then needs little WAL replay when restored
    await pglite.query("CHECKPOINT");
    const postgres = ((await pglite.query("show server_version")).rows[0] as { server_version: string })
      .server_version;
    let files = 0;
    const dump = await pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        files = linkTree(dataDir, staging);
        const fs = pglite.fs;
        if (!fs) throw new Error("PGlite has no file system to dump");
        return fs.dumpTar("db", "none");
      }),
    );
    writeFileSync(
      path.join(staging, DB_ENTRY),
      await promisify(gzip)(new Uint8Array(await dump.arrayBuffer()), { level: 6 }),
    );
    const manifest: SnapshotManifest = {
      kind: "parlons-backup",
      format: FORMAT,
      createdAt: new Date().toISOString(),
      pglite: pgliteVersion(),
      postgres,
      files,
    };
    writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const entries = [
      MANIFEST,
      DB_ENTRY,
      ...readdirSync(staging).filter((n) => n !== MANIFEST && n !== DB_ENTRY),
    ];
    await tar.create({ file: partial, cwd: staging, portable: true }, entries);
    // the whole installation inside (database, recordings, secrets): its owner's alone
    chmodSync(partial, PRIVATE_FILE_MODE);
    renameSync(partial, file);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

/** Folder that may receive a restore: missing, or empty. */
function assertEmptyDataDir(dataDir: string): void {
  if (!existsSync(dataDir)) return;
  if (!statSync(dataDir).isDirectory()) throw new OperationRefused(`${dataDir} is a file, not a folder.`);
  const entries = readdirSync(dataDir);
  if (entries.length > 0)
    throw new OperationRefused(
      `DATA_DIR ${dataDir} is not empty (${entries.slice(0, 5).join(", ")}${entries.length > 5 ? ", …" : ""}). ` +
        "A restore goes into a new or empty folder only: point DATA_DIR at one, start Parlons on it once it is restored.",
    );
}

/**
 * Restores a snapshot into `dataDir` (missing or empty): unpacked next to it, the database loaded
 * and its tables counted (every row is read: a damaged file fails here), then renamed into place, so a failed restore leaves
 * no half-restored folder behind.
 */
export async function restoreSnapshot(
  file: string,
  dataDir: string,
): Promise<{ manifest: SnapshotManifest; rows: Record<string, number> }> {
  assertEmptyDataDir(dataDir);
  if (!existsSync(file)) throw new OperationRefused(`No such backup file: ${file}`);
  const staging = `${dataDir.replace(/\/+$/, "")}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    try {
      await tar.extract({ file, cwd: staging, strict: true });
    } catch (err) {
      throw new OperationRefused(`${file} is not a Parlons backup (${(err as Error).message}).`);
    }
    const manifestFile = path.join(staging, MANIFEST);
    const manifest = existsSync(manifestFile)
      ? (JSON.parse(readFileSync(manifestFile, "utf8")) as SnapshotManifest)
      : undefined;
    if (manifest?.kind !== "parlons-backup" || !existsSync(path.join(staging, DB_ENTRY)))
      throw new OperationRefused(`${file} is not a Parlons backup (no ${MANIFEST}).`);
    if (manifest.format > FORMAT)
      throw new OperationRefused(
        `${file} was written by a newer Parlons (format ${manifest.format}): upgrade first.`,
      );
    const tarball = await promisify(gunzip)(readFileSync(path.join(staging, DB_ENTRY)));
    const database = await openDatabase({
      dir: path.join(staging, "db"),
      loadDataDir: new Blob([new Uint8Array(tarball)], { type: "application/x-tar" }),
    });
    let rows: Record<string, number>;
    try {
      const pg = database.pglite;
      if (!pg) throw new Error("not a PGlite database");
      rows = await rowCounts((q) => pg.query(q));
    } finally {
      await database.close();
    }
    rmSync(path.join(staging, DB_ENTRY));
    rmSync(manifestFile);
    if (existsSync(dataDir)) rmdirSync(dataDir);
    renameSync(staging, dataDir);
    return { manifest, rows };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
