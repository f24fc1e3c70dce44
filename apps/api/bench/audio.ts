/**
 * Range-request benchmark of the audio route (`npm run bench:audio`): our server against a
 * plain static file server on the same 10 MB MP3, loopback only. Not part of the test suite.
 *
 *   BENCH_SECONDS (default 5)  BENCH_CONCURRENCY (default 16)  BENCH_CHUNK (default 262144 bytes)
 *
 * The load runs in a worker thread; nginx (Debian) is used as the static server when
 * installed, otherwise a small Node http + fs server.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { migrate, openDatabase } from "../src/db/client";
import { media } from "../src/db/schema";
import { seedBase } from "../src/db/seed";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 256 * 1024);
const SIZE = 10 * 1024 * 1024;

interface Result {
  requests: number;
  bytes: number;
  seconds: number;
  errors: number;
}

// Plain JS so that the worker needs no TypeScript loader.
const loadScript = `
const { workerData, parentPort } = require("node:worker_threads");
const http = require("node:http");
const { url, size, chunk, seconds, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
let requests = 0, bytes = 0, errors = 0;
const end = Date.now() + seconds * 1000;
function one() {
  return new Promise((resolve) => {
    const start = Math.floor(Math.random() * (size - chunk));
    const req = http.get({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent,
      headers: { range: "bytes=" + start + "-" + (start + chunk - 1) } }, (res) => {
      let got = 0;
      res.on("data", (d) => { got += d.length; });
      res.on("end", () => { if (res.statusCode === 206 && got === chunk) { requests++; bytes += got; } else errors++; resolve(); });
    });
    req.on("error", () => { errors++; resolve(); });
  });
}
async function loop() { while (Date.now() < end) await one(); }
const t0 = Date.now();
Promise.all(Array.from({ length: concurrency }, loop)).then(() => {
  agent.destroy();
  parentPort.postMessage({ requests, bytes, errors, seconds: (Date.now() - t0) / 1000 });
});
`;

function load(url: string, seconds = SECONDS): Promise<Result> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(loadScript, {
      eval: true,
      workerData: { url, size: SIZE, chunk: CHUNK, seconds, concurrency: CONCURRENCY },
    });
    worker.once("message", (r: Result) => resolve(r));
    worker.once("error", reject);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

/** A static server: nginx when installed, else Node's http + fs with single ranges. */
async function startStatic(dir: string, file: string): Promise<{ url: string; name: string; stop(): void }> {
  const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));
  if (nginx) {
    // nginx workers run as an unprivileged user when started by root: let them read the file
    chmodSync(dir, 0o755);
    chmodSync(file, 0o644);
    const probe = createServer();
    const port = await listen(probe);
    probe.close();
    const conf = path.join(dir, "nginx.conf");
    writeFileSync(
      conf,
      `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  client_body_temp_path ${dir}/nginx-body; proxy_temp_path ${dir}/nginx-proxy; fastcgi_temp_path ${dir}/nginx-fcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi; scgi_temp_path ${dir}/nginx-scgi;
  types { audio/mpeg mp3; }
  server { listen 127.0.0.1:${port}; root ${dir}; } }`,
    );
    const child = spawn(nginx, ["-c", conf, "-p", dir], { stdio: "ignore" });
    for (let i = 0; i < 50; i += 1) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/${path.basename(file)}`, {
          headers: { range: "bytes=0-0" },
        });
        await res.arrayBuffer();
        if (res.status === 206) break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const version = execFileSync(nginx, ["-v"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
    return {
      url: `http://127.0.0.1:${port}/${path.basename(file)}`,
      name: `nginx (${version || "Debian"}, 1 worker, sendfile)`,
      stop: () => child.kill("SIGTERM"),
    };
  }
  const size = statSync(file).size;
  const server = createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
    const start = m ? Number(m[1]) : 0;
    const end = m ? Math.min(Number(m[2]), size - 1) : size - 1;
    res.writeHead(m ? 206 : 200, {
      "content-type": "audio/mpeg",
      "content-length": end - start + 1,
      ...(m ? { "content-range": `bytes ${start}-${end}/${size}` } : {}),
    });
    createReadStream(file, { start, end }).pipe(res);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/`,
    name: "Node http + fs.createReadStream",
    stop: () => server.close(),
  };
}

function line(name: string, r: Result) {
  const rps = r.requests / r.seconds;
  const mbps = r.bytes / r.seconds / (1024 * 1024);
  console.log(
    `${name.padEnd(48)} ${rps.toFixed(0).padStart(7)} req/s ${mbps.toFixed(1).padStart(8)} MB/s  (${r.requests} ok, ${r.errors} errors, ${r.seconds.toFixed(1)} s)`,
  );
  return { rps, mbps };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "parlons-bench-"));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: dir,
    DATABASE_URL: process.env.DATABASE_URL ?? "",
    JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    LOG_LEVEL: "silent",
    SEED_DEMO: "false",
    WEB_DIST: path.join(dir, "no-web"),
  });
  const database = await openDatabase({ url: config.databaseUrl, dir: null });
  await migrate(database);
  await seedBase(database.db, { email: "bench@parlons.local", password: "Bench-pass1!" });
  const app = await buildApp({ config, database });
  const { courses, lessons, mediaUrls } = app.deps.services;

  // a 10 MB "MP3": an ID3 header then random bytes (the route never decodes it)
  const mp3 = Buffer.concat([Buffer.from("ID3\x04\0\0\0\0\0\0", "latin1"), randomBytes(SIZE - 10)]);
  const local = path.join(dir, "bench.mp3");
  writeFileSync(local, mp3);
  await app.deps.services.media.storage.copyFile("audio/bench.mp3", local);
  await database.db
    .insert(media)
    .values({ type: "audio", path: "audio/bench.mp3", mimeType: "audio/mpeg", size: SIZE, duration: 600 });
  const course = await courses.create({
    title_fr: "Bench",
    title_en: "Bench",
    description_fr: "",
    description_en: "",
    target_language: "en",
    level: "A1",
    cover: null,
    active: true,
    popular: false,
    position: 0,
  });
  const lesson = await lessons.create(course.id, {
    title_fr: "Bench",
    title_en: "Bench",
    text_fr: "",
    text_en: "",
    audio: "audio/bench.mp3",
    transcript: "",
    links: [],
    free: true,
    active: true,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const ours = `http://127.0.0.1:${port}${mediaUrls.sign(lesson.id, null).url}`;
  const staticServer = await startStatic(dir, local);

  console.log(
    `Range requests of ${CHUNK / 1024} KiB at random offsets in a 10 MB MP3, ${CONCURRENCY} concurrent, ${SECONDS} s each, loopback`,
  );
  try {
    await load(ours, 1); // warm-up
    const a = line("Parlons /api/v1/media/audio (signed URL, DB check)", await load(ours));
    const b = line(staticServer.name, await load(staticServer.url));
    console.log(
      `ratio Parlons / static: ${(a.rps / b.rps).toFixed(2)} (requests/s), ${(a.mbps / b.mbps).toFixed(2)} (MB/s)`,
    );
  } finally {
    staticServer.stop();
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
