import path from "node:path";
import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { migrate, openDatabase } from "./db/client";
import { seedAll } from "./db/seed-all";
import { startMailWorker } from "./jobs/mail-worker";
import { startSubscriptionSync } from "./jobs/subscription-sync";
import { requestSerializer } from "./lib/log-serializers";
import { pgliteTemplateDir } from "./paths";

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

  const database = await openDatabase({
    url: config.databaseUrl,
    dir: path.join(config.dataDir, "db"),
    template: pgliteTemplateDir,
  });
  phase("open");
  const migrations = await migrate(database);
  phase("migrate");
  const seeded = await seedAll(database.db, config);
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

  phase("app");
  if (seeded.generatedPassword) {
    const line = "=".repeat(64);
    console.log(
      `\n${line}\n  Parlons: first admin account created\n  email:    ${seeded.adminEmail}\n  password: ${seeded.generatedPassword}\n  (shown once: change it after logging in)\n${line}\n`,
    );
  }
  app.log.info({ database: database.kind, mail: app.deps.mailer.kind }, "Parlons is starting");

  const subscriptionSync = startSubscriptionSync({
    db: database.db,
    billing: app.deps.services.billing,
    intervalSeconds: config.payments.syncIntervalSeconds,
    log: app.log,
    metrics: app.metrics,
  });
  app.addHook("onClose", async () => subscriptionSync.stop());
  app.log.info({ payments: config.payments.provider }, "payment provider");
  const mailWorker = startMailWorker({
    queue: app.deps.services.mailDeliveries,
    mailer: app.deps.mailer,
    log: app.log,
    metrics: app.metrics,
  });
  app.addHook("onClose", async () => mailWorker.stop());

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
      await app.close();
      await database.close();
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
