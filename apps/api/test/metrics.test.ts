import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { startMailWorker } from "../src/jobs/mail-worker";
import { buildTestApp, type TestContext } from "./helpers/build";
import { testDatabase } from "./helpers/database";

const TOKEN = "metrics-token-for-the-tests-0123456789";

/** The value of one series of a Prometheus exposition text (0 when absent). */
function series(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[3] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(match[4]);
  }
  return total;
}

let t: TestContext;
let base: string;
beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
};

describe("/metrics", () => {
  it("needs the Bearer token of METRICS_TOKEN", async () => {
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect(await none.json()).toMatchObject({ statusCode: 401, code: "UNAUTHENTICATED" });
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const basic = await fetch(`${base}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
  });

  it("is not there without METRICS_TOKEN", async () => {
    const other = await buildTestApp({ reset: false });
    try {
      const res = await other.request({ method: "GET", url: "/metrics" });
      expect(res.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("refuses a METRICS_TOKEN too short to be a secret", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be at least 24/);
  });

  it("moves the HTTP, cache, database, payment, webhook and job series with traffic", async () => {
    const before = await scrape();
    const admin = await t.adminToken();
    const learner = await t.createUser();

    // public reads: computed once, then from memory through Fastify, then before routing (fast path)
    const list = `${base}/api/v1/courses/active?page=1`;
    const first = await fetch(list);
    expect(first.status).toBe(200);
    await fetch(list);
    const etag = (await fetch(list)).headers.get("etag") ?? "";
    expect((await fetch(list, { headers: { "if-none-match": etag } })).status).toBe(304);
    // signed-in reads: the principal cache
    for (let i = 0; i < 3; i++) {
      const me = await fetch(`${base}/api/v1/user/me`, {
        headers: { authorization: `Bearer ${learner.token}` },
      });
      expect(me.status).toBe(200);
    }
    expect((await fetch(`${base}/api/v1/no-such-route/123`)).status).toBe(404);

    // a payment: a paid plan, a demo checkout, its approval
    const plan = await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: { name: "Monthly", name_fr: "Mensuel", amount: 990, interval: "month" },
    });
    const started = await t.request({
      method: "POST",
      url: "/api/v1/customer-plan",
      token: learner.token,
      payload: { plan_id: plan.json().data.plan.id },
    });
    expect(started.statusCode).toBe(201);
    const approved = await t.request({
      method: "POST",
      url: `/api/v1/customer-plan/demo/${started.json().data.customerPlan.id}/approve`,
      token: learner.token,
    });
    expect(approved.statusCode).toBe(200);
    // a webhook while PayPal is not the provider: rejected
    const hook = await fetch(`${base}/api/v1/billing/webhooks/paypal`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "WH-1", event_type: "PAYMENT.SALE.COMPLETED", resource: {} }),
    });
    expect(hook.status).toBe(400);

    // a campaign queued: the queue's depth, then the worker sends it
    const queued = await t.request({
      method: "POST",
      url: "/api/v1/send-mail/send",
      token: admin,
      payload: {
        subject_fr: "Bonjour",
        subject_en: "Hello",
        body_fr: "Bonjour {{full_name}}",
        body_en: "Hello {{full_name}}",
        audience: { role: "CUSTOMER" },
      },
    });
    expect(queued.statusCode).toBe(202);
    const waiting = await scrape();
    expect(
      series(waiting, "parlons_job_queue_items", { queue: "mail_deliveries", state: "queued" }),
    ).toBeGreaterThan(0);
    expect(
      series(waiting, "parlons_job_queue_oldest_age_seconds", { queue: "mail_deliveries" }),
    ).toBeGreaterThanOrEqual(0);
    const worker = startMailWorker({
      queue: t.app.deps.services.mailDeliveries,
      mailer: t.mailbox,
      log: t.app.log,
      schedule: false,
      metrics: t.app.metrics,
    });
    const sent = await worker.runOnce();
    expect(sent.sent).toBeGreaterThan(0);
    await worker.stop();

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      series(after, name, labels) - series(before, name, labels);

    const listRoute = { method: "GET", route: "/api/v1/courses/active", status_code: "200" };
    expect(moved("parlons_http_request_duration_seconds_count", listRoute)).toBeGreaterThanOrEqual(1);
    expect(moved("parlons_http_request_duration_seconds_count", { route: "/api/v1/user/me" })).toBe(3);
    expect(
      moved("parlons_http_request_duration_seconds_count", { route: "unmatched", status_code: "404" }),
    ).toBe(1);
    // the raw URL never becomes a label
    expect(after).not.toContain("no-such-route");
    expect(after).not.toContain("page=1");
    expect(moved("parlons_http_fast_path_responses_total")).toBeGreaterThanOrEqual(1);
    expect(moved("parlons_http_fast_path_responses_total", { status_code: "304" })).toBe(1);
    expect(moved("parlons_cache_requests_total", { cache: "public", result: "miss" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(moved("parlons_cache_requests_total", { cache: "public", result: "hit" })).toBeGreaterThanOrEqual(
      2,
    );
    expect(
      moved("parlons_cache_requests_total", { cache: "principal", result: "hit" }),
    ).toBeGreaterThanOrEqual(2);
    expect(moved("parlons_cache_requests_total", { cache: "access", result: "miss" })).toBeGreaterThanOrEqual(
      0,
    );
    expect(moved("parlons_db_query_duration_seconds_count", { outcome: "ok" })).toBeGreaterThan(10);
    expect(moved("parlons_payments_total", { provider: "demo", outcome: "checkout_started" })).toBe(1);
    expect(moved("parlons_payments_total", { provider: "demo", outcome: "activated" })).toBe(1);
    expect(moved("parlons_payments_total", { provider: "demo", outcome: "payment_recorded" })).toBe(1);
    expect(moved("parlons_webhooks_total", { provider: "paypal", outcome: "rejected" })).toBe(1);
    expect(moved("parlons_job_items_total", { job: "mail-worker", outcome: "sent" })).toBe(sent.sent);
    expect(series(after, "parlons_job_queue_items", { queue: "mail_deliveries", state: "queued" })).toBe(0);
    expect(series(after, "parlons_http_requests_in_flight")).toBeGreaterThanOrEqual(1); // the scrape itself
    expect(after).toContain("process_cpu_seconds_total");
  });
});

describe("request ids", () => {
  it("go back in X-Request-Id: the caller's when sane, a new one otherwise", async () => {
    const fresh = await fetch(`${base}/api/health`);
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${base}/api/health`, { headers: { "x-request-id": "lb-7f3a.42" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a.42");
    const replaced = await fetch(`${base}/api/health`, { headers: { "x-request-id": "a b<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(`${base}/api/health`, { headers: { "x-request-id": "x".repeat(200) } });
    expect(long.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // the fast path (public reads from memory) logs nothing, but sends a caller's id back
    await fetch(`${base}/api/v1/settings`);
    const fast = await fetch(`${base}/api/v1/settings`, { headers: { "x-request-id": "fast-1" } });
    expect(fast.headers.get("x-request-id")).toBe("fast-1");
    const refused = await fetch(`${base}/api/v1/user/me`, { headers: { "x-request-id": "err-1" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toBe("err-1");
  });

  it("are on every log line of the request", async () => {
    const lines: { reqId?: string; msg?: string }[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const database = await testDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), "parlons-reqid-"));
    const app = await buildApp({
      config: loadConfig({
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
        WEB_DIST: path.join(dataDir, "no-web"),
      }),
      database,
      logger: { level: "info", stream },
    });
    try {
      const res = await app.inject({
        method: "GET",
        url: "/api/health",
        headers: { "x-request-id": "trace-9" },
      });
      expect(res.headers["x-request-id"]).toBe("trace-9");
      const mine = lines.filter((l) => l.reqId === "trace-9");
      expect(mine.map((l) => l.msg)).toEqual(["incoming request", "request completed"]);
    } finally {
      await app.close();
    }
  });
});
