import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Counts kept as plain numbers by the parts that are too hot for a metric call each time. */
export interface MetricSources {
  /** Requests Fastify is handling now (counted around the handler in app.ts). */
  inFlight(): number;
  /** Answers of the public reads cache through Fastify (`get`): from memory, or computed. */
  publicCache?: { stats: { hits: number; misses: number } };
  /** Answers sent before routing by the fast path (plugins/fast-path.ts), by status. */
  fastPath?: { stats: { ok: number; notModified: number; byRead: Record<string, number> } };
  /** Server-rendered pages (web/page-renderer.ts): served as rendered before, or rendered (a miss). */
  pages?: { stats: { hits: number; misses: number } };
  /** The signed-in caches (modules/auth/principal-cache.ts). */
  principals?: {
    stats: { principalHits: number; principalMisses: number; accessHits: number; accessMisses: number };
  };
  /** PostgreSQL's pool (none on PGlite: one connection in the process). */
  pool?(): { total: number; idle: number; waiting: number } | undefined;
  /** Mail deliveries waiting or being sent, and the age of the oldest waiting one (read at scrape time). */
  mailQueue?(): Promise<{ queued: number; running: number; oldestAgeSeconds: number }>;
}

/**
 * The Prometheus metrics of one app (its own registry: tests build several apps in a process).
 * Names and what they are for: docs/operations.md, "Metrics".
 */
export function createMetrics() {
  const registry = new Registry();
  let sources: MetricSources = { inFlight: () => 0 };
  const registers = [registry];
  /** A counter of this registry, by the labels named. */
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers });

  const httpDuration = new Histogram({
    name: "parlons_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status (the fast path's answers are in parlons_http_fast_path_responses_total)",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new Gauge({
    name: "parlons_http_requests_in_flight",
    help: "HTTP requests being handled now",
    registers,
    collect() {
      this.set(sources.inFlight());
    },
  });
  new Counter({
    name: "parlons_http_fast_path_responses_total",
    help: "Reads answered from memory before routing (anonymous public reads, a signed-in learner's lesson list), by status",
    labelNames: ["status_code"] as const,
    registers,
    collect() {
      const s = sources.fastPath?.stats;
      this.reset();
      if (!s) return;
      this.inc({ status_code: "200" }, s.ok);
      this.inc({ status_code: "304" }, s.notModified);
    },
  });
  new Counter({
    name: "parlons_cache_requests_total",
    help: "Reads of the in-memory caches by result: public (public reads, fast path included), page (server-rendered pages; a miss is a render), principal (who a token is), access (what a plan opens)",
    labelNames: ["cache", "result"] as const,
    registers,
    collect() {
      this.reset();
      const pub = sources.publicCache?.stats;
      const fast = sources.fastPath?.stats;
      if (pub) {
        this.inc({ cache: "public", result: "hit" }, pub.hits + (fast?.byRead.public ?? 0));
        this.inc({ cache: "public", result: "miss" }, pub.misses);
      }
      const pages = sources.pages?.stats;
      if (pages) {
        this.inc({ cache: "page", result: "hit" }, pages.hits);
        this.inc({ cache: "page", result: "miss" }, pages.misses);
      }
      const p = sources.principals?.stats;
      if (p) {
        this.inc({ cache: "principal", result: "hit" }, p.principalHits);
        this.inc({ cache: "principal", result: "miss" }, p.principalMisses);
        this.inc({ cache: "access", result: "hit" }, p.accessHits);
        this.inc({ cache: "access", result: "miss" }, p.accessMisses);
      }
    },
  });
  const dbDuration = new Histogram({
    name: "parlons_db_query_duration_seconds",
    help: "Time of a database query, by outcome (ok, error)",
    labelNames: ["outcome"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  new Gauge({
    name: "parlons_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle, waiting: requests waiting for a connection)",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const pool = sources.pool?.();
      if (!pool) return;
      this.set({ state: "total" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "waiting" }, pool.waiting);
    },
  });
  new Gauge({
    name: "parlons_job_queue_items",
    help: "Items of a job queue by state (queued: waiting, retries included; running: claimed under a lease)",
    labelNames: ["queue", "state"] as const,
    registers,
    async collect() {
      const q = await sources.mailQueue?.();
      if (!q) return;
      this.set({ queue: "mail_deliveries", state: "queued" }, q.queued);
      this.set({ queue: "mail_deliveries", state: "running" }, q.running);
      oldest.set({ queue: "mail_deliveries" }, q.oldestAgeSeconds);
    },
  });
  const oldest = new Gauge({
    name: "parlons_job_queue_oldest_age_seconds",
    help: "Age of the oldest waiting item of a job queue (0 when empty)",
    labelNames: ["queue"] as const,
    registers,
  });
  const jobItems = counter(
    "parlons_job_items_total",
    "Items processed by the jobs of this process, by job and outcome (mail-worker: sent, retry, failed)",
    ["job", "outcome"] as const,
  );
  const jobRuns = counter(
    "parlons_job_runs_total",
    "Runs of the periodic jobs of this process, by job and outcome (ok, failed, skipped: another process had it)",
    ["job", "outcome"] as const,
  );
  const payments = counter(
    "parlons_payments_total",
    "Payment events by provider and outcome (checkout_started, checkout_failed, activated, payment_recorded, duplicate_cancelled, refund_due)",
    ["provider", "outcome"] as const,
  );
  const webhooks = counter(
    "parlons_webhooks_total",
    "Payment provider webhooks by provider and outcome (processed, duplicate, rejected, failed)",
    ["provider", "outcome"] as const,
  );

  let defaults = false;
  return {
    registry,
    /** Where the plain counters are read from (set once the parts exist). */
    setSources(next: Partial<MetricSources>) {
      sources = { ...sources, ...next };
    },
    /** Node's own metrics (CPU, memory, event loop lag, GC), once /metrics is served. */
    collectProcessMetrics() {
      if (defaults) return;
      defaults = true;
      collectDefaultMetrics({ register: registry });
    },
    request(method: string, route: string, status: number, seconds: number) {
      httpDuration.observe({ method, route, status_code: String(status) }, seconds);
    },
    query(seconds: number, failed: boolean) {
      dbDuration.observe({ outcome: failed ? "error" : "ok" }, seconds);
    },
    jobItem(job: string, outcome: string, n = 1) {
      if (n > 0) jobItems.inc({ job, outcome }, n);
    },
    jobRun(job: string, outcome: "ok" | "failed" | "skipped") {
      jobRuns.inc({ job, outcome });
    },
    payment(provider: string, outcome: string) {
      payments.inc({ provider, outcome });
    },
    webhook(provider: string, outcome: string) {
      webhooks.inc({ provider, outcome });
    },
    /** The exposition text and its content type. */
    async scrape(): Promise<{ body: string; contentType: string }> {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
