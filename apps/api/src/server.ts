import path from "node:path";
import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { migrate, openDatabase } from "./db/client";
import { startAnalyticsRollup } from "./jobs/analytics-rollup";
import { startCheckoutSweep } from "./jobs/checkout-sweep";
import { startCoursePublishing } from "./jobs/course-publishing";
import { startEventReminders } from "./jobs/event-reminders";
import { startHandsFreeSweep } from "./jobs/hands-free-sweep";
import { startMailWorker } from "./jobs/mail-worker";
import { startOutboxWorker } from "./jobs/outbox-worker";
import { startStorageSweep } from "./jobs/storage-sweep";
import { startStudyReminders } from "./jobs/study-reminders";
import { startSubscriptionSync } from "./jobs/subscription-sync";
import { requestSerializer } from "./lib/log-serializers";
import { keepCreatedFilesPrivate, makeTreePrivate } from "./lib/private-files";
import { askServer, startControlSocket } from "./ops/control-socket";
import { pgliteTemplateDir } from "./paths";
import { seedAll } from "./seed-all";

/** An arbitrary constant: the advisory lock of "seeding a fresh installation". */
const SEED_LOCK = 7_034_113;

async function main() {
  // Wall and CPU milliseconds of each start-up phase, logged once listening ("modules" is
  // from the process's start: Node's boot and loading the bundle with its packages).
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const phases: Record<string, number> = { modules: Math.round(performance.now()) };
  const cpu: Record<string, number> = { modules: Math.round(cpuMs()) };
  let mark = [performance.now(), cpuMs()] as const;
  const phase = (name: string) => {
    const now = [performance.now(), cpuMs()] as const;
    phases[name] = Math.round(now[0] - mark[0]);
    cpu[name] = Math.round(now[1] - mark[1]);
    mark = now;
  };
  // DATA_DIR (mail with live links, voice recordings, the database, secrets) is this account's alone
  keepCreatedFilesPrivate();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  if (!config.databaseUrl) {
    // two processes on one PGlite folder would corrupt it: the one running answers on its socket
    const other = await askServer(config.dataDir, { command: "ping" }).catch(() => undefined);
    if (other?.ok) {
      console.error(`Another Parlons process (pid ${other.pid}) runs on ${config.dataDir}: stop it first.`);
      process.exit(1);
    }
  }
  // the app's logger once it exists; until then the error goes to stderr
  let onIdleError = (err: Error) => console.warn(`database connection ended by the server: ${err.message}`);
  const database = await openDatabase({
    url: config.databaseUrl,
    dir: path.join(config.dataDir, "db"),
    template: pgliteTemplateDir,
    onIdleError: (err) => onIdleError(err),
  });
  // what an earlier version (or a copied template, a restore, an operator) left readable by others
  const madePrivate = makeTreePrivate(config.dataDir);
  phase("open");
  const migrations = await migrate(database);
  phase("migrate");
  // processes starting together on one PostgreSQL database seed one after the other
  const seed = () => seedAll(database.db, config);
  const seeded = await (database.withLock ? database.withLock(SEED_LOCK, seed) : seed());
  phase("seed");

  const app = await buildApp({
    config,
    database,
    logger: {
      level: config.logLevel,
      redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
      serializers: { req: requestSerializer },
      ...(process.stdout.isTTY && config.env !== "production" ? { transport: undefined } : {}),
    },
  });
  onIdleError = (err) =>
    app.log.warn({ err }, "database connection ended by the server; the pool opens another");

  phase("app");
  if (seeded.generatedPassword) {
    const line = "=".repeat(64);
    console.log(
      `\n${line}\n  Parlons: first admin account created\n  email:    ${seeded.adminEmail}\n  password: ${seeded.generatedPassword}\n  (shown once: change it after logging in)\n${line}\n`,
    );
  }
  app.log.info({ database: database.kind, mail: app.deps.mailer.kind }, "Parlons is starting");

  // every background job logs and counts, and stops when the server closes
  const jobLog = { log: app.log, metrics: app.metrics };
  const untilClose = <J extends { stop(): Promise<unknown> }>(job: J): J => {
    app.addHook("onClose", async () => job.stop());
    return job;
  };
  const subscriptionSync = untilClose(
    startSubscriptionSync({
      db: database.db,
      billing: app.deps.services.billing,
      intervalSeconds: config.payments.syncIntervalSeconds,
      ...jobLog,
    }),
  );
  const checkoutSweep = untilClose(
    startCheckoutSweep({
      db: database.db,
      billing: app.deps.services.billing,
      purchases: app.deps.services.purchases,
      ...jobLog,
    }),
  );
  app.log.info({ payments: config.payments.provider }, "payment provider");
  // the embedded database belongs to this process: `npm run backup` asks it on a local socket
  if (database.pglite) {
    const control = await startControlSocket({
      dataDir: config.dataDir,
      pglite: database.pglite,
      log: app.log,
    });
    app.addHook("onClose", async () => control.close());
  }
  const mailWorker = untilClose(
    startMailWorker({
      queue: app.deps.services.mailDeliveries,
      mailer: app.deps.mailer,
      leaseMs: config.mailWorker.leaseMs,
      intervalMs: config.mailWorker.intervalMs,
      ...jobLog,
    }),
  );
  const outboxWorker = untilClose(
    startOutboxWorker({
      outbox: app.deps.services.mailOutbox,
      mailer: app.deps.mailer,
      ...jobLog,
    }),
  );
  const eventReminders = untilClose(
    startEventReminders({
      events: app.deps.services.events,
      ...jobLog,
    }),
  );
  const coursePublishing = untilClose(
    startCoursePublishing({
      courses: app.deps.services.courses,
      audit: app.deps.services.audit,
      ...jobLog,
    }),
  );
  const analyticsRollup = untilClose(
    startAnalyticsRollup({
      analytics: app.deps.services.analytics,
      ...jobLog,
    }),
  );
  const studyReminders = untilClose(
    startStudyReminders({
      habit: app.deps.services.habit,
      intervalMs: config.studyRemindersIntervalMs,
      ...jobLog,
    }),
  );
  const storageSweep = untilClose(
    startStorageSweep({
      db: database.db,
      trash: app.deps.services.media.trash,
      ...jobLog,
    }),
  );
  const handsFreeSweep = untilClose(
    startHandsFreeSweep({
      db: database.db,
      sessions: app.deps.services.handsFreeAudio,
      ...jobLog,
    }),
  );

  // SIGTERM drains: /api/health/ready answers 503 at once and the jobs stop (the mail being sent
  // finishes, the rest of its batch is released); requests keep being served for the drain delay,
  // then the listener closes and the requests in flight (uploads, audio streams) finish
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.deps.lifecycle.draining = true;
    app.log.info({ signal, drainDelayMs: config.shutdown.drainDelayMs }, "draining");
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: config.shutdown.timeoutMs }, "shutdown took too long: exiting");
      process.exit(1);
    }, config.shutdown.timeoutMs);
    timer.unref();
    try {
      const jobs = Promise.all([
        mailWorker.stop(),
        outboxWorker.stop(),
        eventReminders.stop(),
        coursePublishing.stop(),
        analyticsRollup.stop(),
        studyReminders.stop(),
        storageSweep.stop(),
        handsFreeSweep.stop(),
        subscriptionSync.stop(),
        checkoutSweep.stop(),
      ]);
      await new Promise((resolve) => setTimeout(resolve, config.shutdown.drainDelayMs));
      await app.close();
      await jobs;
      await database.close();
      app.log.info({ signal }, "stopped");
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ host: config.host, port: config.port });
  phase("listen");
  app.log.info(
    {
      startupMs: phases,
      cpuMs: cpu,
      fromTemplate: database.fromTemplate,
      migrations,
      madePrivate,
      rssMB: Math.round(process.memoryUsage.rss() / 1048576),
    },
    "start-up phases",
  );
  console.log(`Parlons is ready on ${config.publicUrl}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
