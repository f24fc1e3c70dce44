import path from "node:path";
import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { migrate, openDatabase } from "./db/client";
import { seedAll } from "./db/seed-all";
import { startMailWorker } from "./jobs/mail-worker";
import { startSubscriptionSync } from "./jobs/subscription-sync";
import { requestSerializer } from "./lib/log-serializers";

async function main() {
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

  const database = await openDatabase({ url: config.databaseUrl, dir: path.join(config.dataDir, "db") });
  await migrate(database);
  const seeded = await seedAll(database.db, config);

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
  });
  app.addHook("onClose", async () => subscriptionSync.stop());
  app.log.info({ payments: config.payments.provider }, "payment provider");
  const mailWorker = startMailWorker({
    queue: app.deps.services.mailDeliveries,
    mailer: app.deps.mailer,
    log: app.log,
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
  console.log(`Parlons is ready on ${config.publicUrl}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
