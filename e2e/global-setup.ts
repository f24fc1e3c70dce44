import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";
import { ADMIN, MAIL_DIR } from "./support/env";
import { clearLocks } from "./support/exclusive";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** An SMTP server that writes every message it receives to MAIL_DIR, for the tests to read. */
async function startSmtpSink(): Promise<{ url: string; close: () => Promise<void> }> {
  rmSync(MAIL_DIR, { recursive: true, force: true });
  mkdirSync(MAIL_DIR, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        n += 1;
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        writeFileSync(path.join(MAIL_DIR, `${String(n).padStart(4, "0")}-${to}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** The health answer of whatever listens on `url`: its status, or null when nothing listens. */
async function health(url: string): Promise<number | null> {
  try {
    return (await fetch(`${url}/api/health`)).status;
  } catch {
    return null;
  }
}

/** Asks `done` every 300 ms until it holds; false when `timeoutMs` passed first. */
async function poll(done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number) {
  const up = await poll(async () => {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    return (await health(url)) === 200;
  }, timeoutMs);
  if (!up) throw new Error(`the server did not answer ${url}/api/health within ${timeoutMs} ms`);
}

/** A server of an earlier run may still be draining on the port (5 s): its health is not ours. */
async function waitForPortFree(url: string, timeoutMs: number) {
  if (!(await poll(async () => (await health(url)) === null, timeoutMs)))
    throw new Error(`${url} is still answering: stop the server that holds the port first`);
}

/** Starts `npm start` (the production build) on a fresh DATA_DIR, with mail going to a local SMTP sink. */
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 3100);
  const baseUrl = `http://127.0.0.1:${port}`;
  clearLocks();
  await waitForPortFree(baseUrl, 15_000);
  const smtp = await startSmtpSink();
  const dataDir = mkdtempSync(path.join(tmpdir(), "parlons-e2e-"));
  const child = spawn("npm", ["start"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      // browsers refuse an address as a passkey's relying party: passkeys.spec.ts uses this name
      PASSKEY_ORIGIN: `http://localhost:${port}`,
      SMTP_URL: smtp.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_AUTH_MAX: "500",
      RATE_LIMIT_LOOKUP_MAX: "500",
      // Activation and reset links arrive within a quarter second instead of up to two.
      MAIL_WORKER_INTERVAL_MS: "250",
      // a study reminder due now is queued within a second
      STUDY_REMINDERS_INTERVAL_MS: "1000",
      // push.spec.ts subscribes browsers to a push service of its own on this machine
      PUSH_SERVICE_HOSTS: "127.0.0.1",
      LOG_LEVEL: "warn",
    },
    detached: true,
  });
  const stop = async () => {
    if (child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  // (a fresh database is migrated and seeded first: minutes on a machine busy with other work)
  try {
    await waitForHealth(baseUrl, child, 180_000);
  } catch (error) {
    // a server that answers too late would hold the port for the next run
    await stop();
    throw error;
  }
  return stop;
}
