import { createHash } from "node:crypto";
import { chmodSync, existsSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { FastifyBaseLogger } from "fastify";
import { writeSnapshot } from "./snapshot";

/**
 * The local control socket of a server running on the embedded database: `npm run backup` asks
 * the process that holds the PGlite folder to write the snapshot (a second process must never
 * open that folder). A Unix socket with mode 0600 in DATA_DIR: only the account that owns the
 * data may use it, no port is opened, and nothing of it is reachable over HTTP.
 */
function controlSocketPath(dataDir: string): string {
  const inside = path.join(dataDir, "parlons.sock");
  // sun_path holds 107 bytes: a deep DATA_DIR gets a socket in the temporary folder, named after it
  if (Buffer.byteLength(inside) <= 100) return inside;
  const hash = createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
  return path.join(tmpdir(), `parlons-${hash}.sock`);
}

export type ControlRequest = { command: "ping" } | { command: "backup"; file: string };
export type ControlAnswer = { ok: true; pid: number; result?: unknown } | { ok: false; error: string };

/** Sends one request to the server of `dataDir`; undefined when no server listens there. */
export function askServer(dataDir: string, request: ControlRequest): Promise<ControlAnswer | undefined> {
  const socketPath = controlSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    if (!existsSync(socketPath)) return resolve(undefined);
    const socket = createConnection(socketPath);
    let answer = "";
    let connected = false;
    socket.setEncoding("utf8");
    socket.on("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("end", () => {
      try {
        resolve(JSON.parse(answer) as ControlAnswer);
      } catch {
        reject(new Error(`unexpected answer from the server: ${answer.slice(0, 200)}`));
      }
    });
    socket.on("error", (err: NodeJS.ErrnoException) => {
      // a socket file left by a process that died: nobody listens
      if (!connected && (err.code === "ECONNREFUSED" || err.code === "ENOENT")) resolve(undefined);
      else reject(err);
    });
  });
}

/**
 * Listens on the control socket; refuses to start when another live process already serves this
 * DATA_DIR (two processes on one PGlite folder would corrupt it).
 */
export async function startControlSocket(opts: {
  dataDir: string;
  pglite: PGlite;
  log: Pick<FastifyBaseLogger, "info" | "error">;
}): Promise<{ close(): Promise<void> }> {
  const socketPath = controlSocketPath(opts.dataDir);
  const other = await askServer(opts.dataDir, { command: "ping" }).catch(() => undefined);
  if (other?.ok)
    throw new Error(
      `another Parlons process (pid ${other.pid}) is running on ${opts.dataDir}: one process per embedded database`,
    );
  rmSync(socketPath, { force: true });
  let running: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((socket) => {
    let line = "";
    socket.setEncoding("utf8");
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: string) => {
      line += chunk;
      const end = line.indexOf("\n");
      if (end < 0) {
        if (line.length > 10_000) socket.destroy();
        return;
      }
      const reply = (answer: ControlAnswer) => socket.end(`${JSON.stringify(answer)}\n`);
      let request: ControlRequest;
      try {
        request = JSON.parse(line.slice(0, end)) as ControlRequest;
      } catch {
        return reply({ ok: false, error: "not JSON" });
      }
      if (request.command === "ping") return reply({ ok: true, pid: process.pid });
      if (request.command === "backup" && typeof request.file === "string" && path.isAbsolute(request.file)) {
        const file = request.file;
        // one backup at a time
        const job = running.then(async () => {
          opts.log.info({ file }, "backup started");
          const manifest = await writeSnapshot(opts.pglite, opts.dataDir, file);
          opts.log.info({ file, files: manifest.files }, "backup written");
          return manifest;
        });
        running = job.catch(() => undefined);
        job.then(
          (result) => reply({ ok: true, pid: process.pid, result }),
          (err: unknown) => {
            opts.log.error({ err, file }, "backup failed");
            reply({ ok: false, error: err instanceof Error ? err.message : String(err) });
          },
        );
        return;
      }
      reply({ ok: false, error: "unknown command" });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return {
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await running;
      rmSync(socketPath, { force: true });
    },
  };
}
