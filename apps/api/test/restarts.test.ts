import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoot } from "../src/paths";
import { startSmtpSink } from "./fakes/smtp-sink";
import { ADMIN_LOGIN, apiClient, type ServerProcess, startServer } from "./helpers/server-process";

// Several processes on one PostgreSQL database, as an operator runs Parlons behind a load
// balancer: one restarted during traffic, one killed in the middle of a mail campaign. Only the
// PostgreSQL run has them: the embedded PGlite database belongs to a single process.
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl)
  console.warn("!! restart and crash tests skipped: they need DATABASE_URL (several processes)");

const repoRoot = path.resolve(apiRoot, "../..");
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await wait(100);
  }
}

interface Backend {
  name: string;
  port: number;
  /** What the last health check said: the balancer sends requests only to a ready backend. */
  up: boolean;
  served: number;
}

/**
 * A load balancer as an operator would put in front of Parlons (nginx, HAProxy, a cloud LB):
 * round robin over the backends whose `GET /api/health/ready` answered 200 at the last check
 * (every 100 ms), and, for a request whose connection failed before any answer, one more try on
 * another backend (nginx's `proxy_next_upstream error`, on by default).
 */
async function startBalancer(backends: Backend[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let stopped = false;
  const check = async () => {
    while (!stopped) {
      await Promise.all(
        backends.map(async (b) => {
          try {
            const res = await fetch(`http://127.0.0.1:${b.port}/api/health/ready`, {
              signal: AbortSignal.timeout(1000),
            });
            b.up = res.status === 200;
          } catch {
            b.up = false;
          }
        }),
      );
      await wait(100);
    }
  };
  void check();
  let next = 0;
  let retries = 0;
  const pick = (except?: Backend) => {
    const ready = backends.filter((b) => b.up && b !== except);
    if (ready.length === 0) return undefined;
    next = (next + 1) % ready.length;
    return ready[next];
  };
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, backend: Backend, tried: boolean) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: backend.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (answer) => {
        backend.served += 1;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      const other = tried ? undefined : pick(backend);
      if (other && !res.headersSent) {
        retries += 1;
        forward(req, res, other, true);
      } else if (!res.headersSent) {
        res.writeHead(502).end();
      } else {
        res.destroy();
      }
    });
    upstream.end();
  };
  const server = http.createServer((req, res) => {
    // only GETs go through this balancer: bodiless, safe to send again
    req.resume();
    const backend = pick();
    if (!backend) {
      res.writeHead(503).end();
      return;
    }
    forward(req, res, backend, false);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    retries: () => retries,
    async close() {
      stopped = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

interface LoadFigures {
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** autocannon in its own process (the bench's load generator) until `stop()`. */
function startLoad(opts: { url: string; headers: Record<string, string>; connections: number }) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(repoRoot, "scripts/bench/lib/load-child.mjs"),
      JSON.stringify({ ...opts, duration: 300, pipelining: 1 }),
    ],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    async stop(): Promise<LoadFigures> {
      child.kill("SIGINT");
      await exited;
      const line = out.trim().split("\n").pop() ?? "";
      try {
        return JSON.parse(line) as LoadFigures;
      } catch {
        throw new Error(`the load generator printed no figures:\n${out}`);
      }
    },
  };
}

describe.skipIf(!databaseUrl)("several processes on one PostgreSQL database", () => {
  const server = new URL(databaseUrl ?? "postgres://postgres@127.0.0.1:5432/postgres");
  server.pathname = "/postgres";
  const name = `parlons_restarts_${process.pid}_${randomBytes(4).toString("hex")}`;
  const target = new URL(server);
  target.pathname = `/${name}`;
  const root = mkdtempSync(path.join(tmpdir(), "parlons-restarts-"));
  const pgAdmin = new pg.Client({ connectionString: server.toString() });
  const running = new Set<ServerProcess>();
  // one installation: the same database, media folder and signing secret for every process
  const shared = {
    DATABASE_URL: target.toString(),
    JWT_SECRET: randomBytes(32).toString("hex"),
    SEED_DEMO: "false",
    SHUTDOWN_DRAIN_DELAY_MS: "1000",
  };
  const start = async (port: number, env: Record<string, string> = {}) => {
    const p = await startServer({ dataDir: path.join(root, "data"), port, env: { ...shared, ...env } });
    running.add(p);
    void p.exited.then(() => running.delete(p));
    return p;
  };

  beforeAll(async () => {
    await pgAdmin.connect();
    await pgAdmin.query(`CREATE DATABASE "${name}"`);
  });
  afterAll(async () => {
    await Promise.all([...running].map((p) => p.stop("SIGKILL")));
    await pgAdmin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await pgAdmin.end();
    rmSync(root, { recursive: true, force: true });
  });

  it("one of two processes restarted under load: no request fails through the balancer", {
    timeout: 180_000,
  }, async () => {
    const a: Backend = { name: "a", port: 3236, up: false, served: 0 };
    const b: Backend = { name: "b", port: 3237, up: false, served: 0 };
    let first = await start(a.port);
    const second = await start(b.port);
    const api = apiClient(first.url);
    const admin = await api.login(ADMIN_LOGIN.email, ADMIN_LOGIN.password);
    const course = await api.call("POST", "/v1/courses", {
      token: admin,
      body: { title_fr: "Relève", title_en: "Handover", target_language: "es", level: "A1", active: true },
    });
    expect(course.status).toBe(201);
    const courseId = course.json.data.course.id as string;
    const lesson = await api.call("POST", `/v1/courses/${courseId}/lessons`, {
      token: admin,
      body: { title_fr: "Bonjour", title_en: "Hello", free: true },
    });
    expect(lesson.status, lesson.text).toBe(201);

    const balancer = await startBalancer([a, b]);
    try {
      await until("both backends ready", () => a.up && b.up);
      // a signed-in read: the token made by one process, checked by either
      const load = startLoad({
        url: `${balancer.url}/api/v1/courses/${courseId}/lessons`,
        headers: { authorization: `Bearer ${admin}` },
        connections: 10,
      });
      await until("traffic on both", () => a.served > 100 && b.served > 100);

      // a rolling restart of a: SIGTERM drains it (the balancer sees 503 and stops sending), it exits, a new a starts
      const stopped = first.stop("SIGTERM");
      await until("a taken out of the balancer", () => !a.up, 10_000);
      expect(await stopped).toBe(0);
      const servedByB = b.served;
      first = await start(a.port);
      await until("a back in the balancer", () => a.up);
      const servedByOldA = a.served;
      await until("traffic through the new a", () => a.served > servedByOldA + 100);

      const figures = await load.stop();
      expect(figures.requests).toBeGreaterThan(500);
      expect({ errors: figures.errors, timeouts: figures.timeouts, non2xx: figures.non2xx }).toEqual({
        errors: 0,
        timeouts: 0,
        non2xx: 0,
      });
      expect(b.served).toBeGreaterThan(servedByB); // the survivor carried the traffic meanwhile
      console.info(
        `restart under load: ${figures.requests} requests, 0 failed; a ${a.served}, b ${b.served}, ${balancer.retries()} connection(s) tried again`,
      );
    } finally {
      await balancer.close();
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it("a process killed (SIGKILL) in the middle of a campaign: every mail goes out once", {
    timeout: 180_000,
  }, async () => {
    // the sink keeps five messages, then holds the sixth's recipient: the send in flight when a dies
    const sink = await startSmtpSink({ holdAfter: 5 });
    const mailEnv = { SMTP_URL: sink.url, MAIL_LEASE_MS: "3000", MAIL_WORKER_INTERVAL_MS: "200" };
    try {
      const a = await start(3238, mailEnv);
      const api = apiClient(a.url);
      const admin = await api.login(ADMIN_LOGIN.email, ADMIN_LOGIN.password);
      const emails = Array.from({ length: 15 }, (_, i) => `campaign-${i}@restarts.test`);
      for (const email of emails) {
        const added = await api.call("POST", "/v1/users/add", {
          token: admin,
          body: { email, password: "Learner-pass1!" },
        });
        expect(added.status, added.text).toBe(201);
      }
      const sent = await api.call("POST", "/v1/send-mail/send", {
        token: admin,
        body: {
          subject_fr: "Nouveau cours",
          subject_en: "New course",
          body_fr: "Bonjour {{email}}",
          body_en: "Hello {{email}}",
          audience: { role: "CUSTOMER" },
        },
      });
      expect(sent.status, sent.text).toBe(202);
      const campaignId = sent.json.data.campaign.id as string;

      await sink.holding;
      expect(sink.received).toHaveLength(5);
      await a.stop("SIGKILL");
      sink.release();

      // another process takes over: the rows a never sent, then, once its lease has expired, the ones it held
      const b = await start(3239, mailEnv);
      const apiB = apiClient(b.url);
      const adminB = await apiB.login(ADMIN_LOGIN.email, ADMIN_LOGIN.password);
      let campaign: { status: string; sent: number; failed: number; total: number } | undefined;
      await until("the campaign sent", async () => {
        const res = await apiB.call("GET", `/v1/send-mail/${campaignId}`, { token: adminB });
        campaign = res.json?.data?.campaign;
        return campaign?.status === "SENT";
      });
      expect(campaign).toMatchObject({
        status: "SENT",
        sent: emails.length,
        failed: 0,
        total: emails.length,
      });
      const recipients = sink.received.map((m) => m.to[0]);
      expect(recipients).toHaveLength(emails.length); // none doubled
      expect([...recipients].sort()).toEqual([...emails].sort()); // none lost
      await b.stop();
    } finally {
      sink.release();
      await sink.close();
    }
  });
});
