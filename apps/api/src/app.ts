import path from "node:path";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "./config";
import type { Database } from "./db/client";
import { createMailer, type Mailer } from "./integrations/mail/mailer";
import authRoutes from "./modules/auth/routes";
import { createAuthService } from "./modules/auth/service";
import { createSessionService } from "./modules/auth/session-service";
import { createTokenSigner } from "./modules/auth/tokens";
import { createEntitlementService } from "./modules/entitlement/service";
import healthRoutes from "./modules/health/routes";
import roleRoutes from "./modules/roles/routes";
import { createRoleService } from "./modules/roles/service";
import userRoutes from "./modules/users/routes";
import { createUserService } from "./modules/users/service";
import { defaultWebDist } from "./paths";
import authPlugin from "./plugins/auth";
import errorsPlugin from "./plugins/errors";
import openapiPlugin from "./plugins/openapi";
import webPlugin from "./plugins/web";

export interface BuildOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  logger?: boolean | object;
}

function createServices(app: FastifyInstance, config: Config, database: Database, mailer: Mailer) {
  const { db } = database;
  const roles = createRoleService(db);
  const users = createUserService(db, roles);
  const signer = createTokenSigner(config.jwtSecret, config.accessTokenTtl);
  const sessions = createSessionService(db, signer, config.refreshTokenTtl);
  const auth = createAuthService({ db, users, sessions, mailer, publicUrl: config.publicUrl, log: app.log });
  const entitlement = createEntitlementService(db);
  return { roles, users, signer, sessions, auth, entitlement };
}

export type Services = ReturnType<typeof createServices>;

export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  services: Services;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/** Builds the Fastify instance: external plugins, then ours, then the modules. No listen(). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const mailer =
    opts.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      outboxDir: path.join(config.dataDir, "mail"),
      from: config.mailFrom,
    });
  const services = createServices(app, config, database, mailer);
  await app.register(
    fp(
      async (instance) => {
        instance.decorate("deps", { config, database, mailer, services });
      },
      { name: "deps" },
    ),
  );

  await app.register(cookie);
  let redis: import("ioredis").Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import("ioredis");
    redis = new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 });
    app.addHook("onClose", async () => {
      redis?.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: "parlons-rl-" } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: "RATE_LIMITED",
      message: `Too many requests: try again in ${context.after}`,
    }),
  });
  await app.register(errorsPlugin);
  await app.register(openapiPlugin);
  await app.register(authPlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(roleRoutes);
    },
    { prefix: "/api" },
  );

  await app.register(webPlugin, { dist: config.webDist ?? defaultWebDist });
  return app;
}
