import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeLearnerData, runOps, type ServerProcess, startServer } from "./helpers/server-process";

/** Every entry under `root` (itself included) whose mode lets anyone but its owner in. */
function readableByOthers(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const info = lstatSync(entry);
    if (info.isSymbolicLink()) return;
    const wanted = info.isDirectory() ? 0o700 : 0o600;
    if ((info.mode & 0o777) !== wanted)
      found.push(`${path.relative(root, entry) || "."} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

// DATA_DIR holds the mail outbox (live reset links), learners' voice recordings, the database,
// secrets: files 0600 and folders 0700, the ones written now and the ones an older version left.
describe("DATA_DIR is private to the account that runs Parlons", () => {
  const root = mkdtempSync(path.join(tmpdir(), "parlons-modes-"));
  const dataDir = path.join(root, "data");
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("fixes what was left readable at start-up and writes mail, media, database and backups 0600/0700", async () => {
    // as an earlier version left it: 0755 folders, 0644 files
    mkdirSync(path.join(dataDir, "mail"), { recursive: true, mode: 0o755 });
    mkdirSync(path.join(dataDir, "media", "audio"), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(dataDir, "mail", "old-reset.eml"), "a reset link", { mode: 0o644 });
    writeFileSync(path.join(dataDir, "media", "audio", "old.mp3"), "a voice", { mode: 0o644 });
    for (const dir of [
      dataDir,
      path.join(dataDir, "mail"),
      path.join(dataDir, "media"),
      path.join(dataDir, "media", "audio"),
    ])
      chmodSync(dir, 0o755);
    expect(readableByOthers(dataDir).length).toBeGreaterThan(0);

    server = await startServer({ dataDir, port: 3241 });
    // an upload, a paid plan (its receipt is mailed), a password reset mail
    const { api } = await makeLearnerData(server.url);
    expect((await api.call("POST", "/v1/auth/forgot-password?email=learner@ops.test")).status).toBeLessThan(
      300,
    );
    const mails = () => readdirSync(path.join(dataDir, "mail")).filter((n) => n.endsWith(".eml")).length;
    for (let i = 0; mails() < 3 && i < 100; i += 1) await wait(100);
    expect(mails()).toBeGreaterThanOrEqual(3);
    expect(readdirSync(path.join(dataDir, "media"), { recursive: true }).length).toBeGreaterThan(2);

    const backup = path.join(root, "backups", "snapshot.tar");
    const ops = await runOps(["backup", backup], { DATA_DIR: dataDir });
    expect(ops.status, ops.output).toBe(0);
    expect((lstatSync(backup).mode & 0o777).toString(8)).toBe("600");

    expect(readableByOthers(dataDir)).toEqual([]);
  }, 120_000);
});
