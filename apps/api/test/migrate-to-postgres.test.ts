import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { type Database, migrate, openDatabase } from "../src/db/client";
import { rowCounts } from "../src/ops/snapshot";
import { pgliteTemplateDir } from "../src/paths";
import { seedAll } from "../src/seed-all";
import { toneMp3 } from "./helpers/learning";
import {
  ADMIN_LOGIN,
  apiClient,
  LEARNER_LOGIN,
  makeLearnerData,
  playedLesson,
  runOps,
} from "./helpers/server-process";
import { runsWith } from "./helpers/services";

// The PostgreSQL server of the PostgreSQL run, or the usual local one (user postgres, trust auth).
const server = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
server.pathname = "/postgres";
async function reachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: server.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
const unreachable = await reachable();

/** Serves `database` on `port` as `npm start` would with this configuration. */
async function serve(database: Database, dataDir: string, port: number) {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAIL: ADMIN_LOGIN.email,
    ADMIN_PASSWORD: ADMIN_LOGIN.password,
    RATE_LIMIT_AUTH_MAX: "1000",
    WEB_DIST: path.join(dataDir, "no-web"),
    LOG_LEVEL: "silent",
  });
  await seedAll(database.db, config);
  const app = await buildApp({ config, database });
  await app.listen({ host: "127.0.0.1", port });
  // The test's own keep-alive connections stay open otherwise until the server's keep-alive
  // timeout (72 s) runs out: app.close() waited that long in a full run of the suite.
  const close = async () => {
    const closing = app.close();
    app.server.closeAllConnections();
    await closing;
  };
  return { app, close, url: `http://127.0.0.1:${port}` };
}

// It copies a PGlite installation into a new database of that server: the same in both runs of CI,
// so it runs once, in the embedded run (DATABASE_URL unset). An unreachable server skips it on a
// developer's machine and fails it in CI (runsWith).
const runs =
  !process.env.DATABASE_URL &&
  runsWith(
    "npm run migrate-to-postgres",
    unreachable && `PostgreSQL at ${server.host} is unreachable (${unreachable})`,
  );
describe.runIf(runs)("npm run migrate-to-postgres", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parlons-migrate-"));
  const name = `parlons_migrate_${process.pid}_${randomBytes(4).toString("hex")}`;
  const target = new URL(server);
  target.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("copies an embedded installation into an empty database; DATABASE_URL is all that changes", async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);

    // the embedded installation, served as `npm start` would, with a learner's data
    const embedded = await openDatabase({ dir: path.join(dataDir, "db"), template: pgliteTemplateDir });
    await migrate(embedded);
    const before = await serve(embedded, dataDir, 3232);
    const { token, courseId, lessonId } = await makeLearnerData(before.url);
    const progress = (await playedLesson(before.url, token, courseId, lessonId)).progress;
    expect(progress).toMatchObject({ done: true, last_position: 7.5, play_count: 1 });
    const pglite = embedded.pglite;
    if (!pglite) throw new Error("not PGlite");
    const source = await rowCounts((q) => pglite.query(q));
    await before.close();

    await embedded.close();
    const env = { DATA_DIR: dataDir };
    const copy = await runOps(["migrate-to-postgres", target.toString()], env);
    expect(copy.output).toContain("the counts match");
    expect(copy.status).toBe(0);
    // a second run finds the target full and leaves it alone
    const again = await runOps(["migrate-to-postgres", target.toString()], env);
    expect(again.status).toBe(2);
    expect(again.output).toContain("not empty");

    const moved = await openDatabase({ url: target.toString(), poolSize: 3 });
    try {
      const copied = await rowCounts(
        async (q) => (await moved.db.execute(sql.raw(q))) as { rows: unknown[] },
      );
      expect(copied).toEqual(source);
      expect(source.lesson_progress).toBe(1);
      expect(source.payments).toBeGreaterThanOrEqual(1);

      // the same DATA_DIR (media, jwt-secret) with the PostgreSQL database: the learner's token,
      // progress and audio are there, and new rows go in
      const after = await serve(moved, dataDir, 3233);
      try {
        const seen = await playedLesson(after.url, token, courseId, lessonId);
        expect(seen.progress).toEqual(progress);
        expect(seen.audio?.equals(toneMp3())).toBe(true);
        const api = apiClient(after.url);
        const staff = await api.login(ADMIN_LOGIN.email, ADMIN_LOGIN.password);
        const newcomer = { email: "newcomer@ops.test", password: LEARNER_LOGIN.password };
        expect((await api.call("POST", "/v1/users/add", { token: staff, body: newcomer })).status).toBe(201);
        const newToken = await api.login(newcomer.email, newcomer.password);
        const played = await api.call("POST", `/v1/courses/${courseId}/lessons/done-customer`, {
          token: newToken,
          body: { lesson_id: lessonId, played: true },
        });
        expect(played.status).toBe(200);
      } finally {
        await after.close();
      }
    } finally {
      await moved.close();
    }
  }, 300_000);
});
