/**
 * The operations commands (`npm run backup`, `npm run restore FILE`, `npm run migrate-to-postgres`),
 * bundled as dist/ops.js. They read DATA_DIR and DATABASE_URL like the server does.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError, loadLocations } from "../config";
import { openDatabase } from "../db/client";
import { keepCreatedFilesPrivate } from "../lib/private-files";
import { askServer, startControlSocket } from "./control-socket";
import { migrateToPostgres } from "./migrate-to-postgres";
import { OperationRefused, restoreSnapshot, writeSnapshot } from "./snapshot";

const usage = `usage:
  npm run backup [-- FILE]      snapshot of the embedded installation (default: parlons-backup-<time>.tar)
  npm run restore FILE          restores a snapshot into DATA_DIR, which must be new or empty
  npm run migrate-to-postgres [-- URL]
                                copies the embedded database of DATA_DIR into an empty PostgreSQL
                                database (URL, or DATABASE_URL); Parlons must be stopped`;

const quiet = { info: () => {}, error: () => {} };

function defaultBackupName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `parlons-backup-${stamp}.tar`;
}

async function backup(args: string[]) {
  const { dataDir, databaseUrl } = loadLocations();
  if (databaseUrl)
    throw new OperationRefused(
      "DATABASE_URL is set: back PostgreSQL up with pg_dump and the media with your storage's tools (docs/operations.md).",
    );
  const file = path.resolve(args[0] ?? defaultBackupName());
  const answer = await askServer(dataDir, { command: "backup", file });
  if (answer && !answer.ok) throw new Error(`the server could not write the backup: ${answer.error}`);
  if (answer) {
    console.log(`Backup written by the running server (pid ${answer.pid}): ${file}`);
    return;
  }
  // no server on this DATA_DIR: open the database here, holding the control socket meanwhile so
  // that a server started now refuses to open the same folder
  const dir = path.join(dataDir, "db");
  if (!existsSync(path.join(dir, "PG_VERSION")))
    throw new OperationRefused(`No embedded database in ${dataDir} (no db/PG_VERSION): is DATA_DIR right?`);
  const database = await openDatabase({ dir });
  const pglite = database.pglite;
  if (!pglite) throw new Error("not a PGlite database");
  const control = await startControlSocket({ dataDir, pglite, log: quiet });
  try {
    await writeSnapshot(pglite, dataDir, file);
  } finally {
    await control.close();
    await database.close();
  }
  console.log(`Backup written (no server was running on ${dataDir}): ${file}`);
}

async function restore(args: string[]) {
  const file = args[0];
  if (!file) throw new OperationRefused(usage);
  const { dataDir } = loadLocations();
  const { manifest, rows } = await restoreSnapshot(path.resolve(file), dataDir);
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  const perTable = Object.entries(rows)
    .map(([table, n]) => `${table} ${n}`)
    .join(", ");
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${dataDir}: ${manifest.files} files, ${total} rows in ${Object.keys(rows).length} tables:\n` +
      `  ${perTable}\n` +
      `Start Parlons with DATA_DIR=${dataDir}.`,
  );
}

/** The URL as it may be printed: without its password. */
function redacted(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

async function migrateToPostgresCommand(args: string[]) {
  const { dataDir, databaseUrl } = loadLocations();
  const url = args[0] ?? databaseUrl;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new OperationRefused(usage);
  const running = await askServer(dataDir, { command: "ping" });
  if (running?.ok)
    throw new OperationRefused(
      `Parlons is running on ${dataDir} (pid ${running.pid}): stop it first, so that nothing is written to the embedded database during the copy.`,
    );
  const dir = path.join(dataDir, "db");
  if (!existsSync(path.join(dir, "PG_VERSION")))
    throw new OperationRefused(`No embedded database in ${dataDir} (no db/PG_VERSION): is DATA_DIR right?`);
  const source = await openDatabase({ dir });
  const pglite = source.pglite;
  if (!pglite) throw new Error("not a PGlite database");
  // held during the copy: a server started meanwhile refuses this DATA_DIR
  const control = await startControlSocket({ dataDir, pglite, log: quiet });
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  let target: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    await client.connect();
    target = await openDatabase({ url, poolSize: 2 });
    console.log(`Copying ${dataDir}/db into ${redacted(url)}…`);
    const { target: rows } = await migrateToPostgres({
      source,
      target,
      targetClient: client,
      log: (line) => console.log(line),
    });
    const total = Object.values(rows).reduce((a, b) => a + b, 0);
    console.log(
      `Copied ${total} rows in ${Object.keys(rows).length} tables; the counts match.\n` +
        `Now start Parlons with DATABASE_URL=${redacted(url)} and the same DATA_DIR (media, mail and jwt-secret stay there).\n` +
        `${dir} is no longer used: keep it until the new set-up has run for a while, then archive it.`,
    );
  } finally {
    await client.end().catch(() => undefined);
    await target?.close();
    await control.close();
    await source.close();
  }
}

const commands: Record<string, (args: string[]) => Promise<void>> = {
  backup,
  restore,
  "migrate-to-postgres": migrateToPostgresCommand,
};

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) throw new OperationRefused(usage);
  // backups and restored installations hold every secret of DATA_DIR
  keepCreatedFilesPrivate();
  await command(args);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof OperationRefused || err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
