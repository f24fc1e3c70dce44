import http from "node:http";
import path from "node:path";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import { fastifyRequestContext } from "@fastify/request-context";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from "fastify";
import fp from "fastify-plugin";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import type { Config } from "./config";
import type { Database } from "./db/client";
import { createMailer, type Mailer } from "./integrations/mail/mailer";
import { createPaymentProviders, type PaymentProviders } from "./integrations/payments";
import { type ChangeBus, createChangeBus } from "./lib/change-bus";
import { type Clock, systemClock } from "./lib/clock";
import { createMetrics } from "./lib/metrics";
import { type AppServices, buildModules } from "./lib/module";
import type { RequestMeta } from "./lib/request-meta";
import alignment from "./modules/alignment";
import analytics from "./modules/analytics";
import audit from "./modules/audit";
import auth from "./modules/auth";
import billing from "./modules/billing";
import certificates from "./modules/certificates";
import configs from "./modules/configs";
import courses from "./modules/courses";
import deviceSessions from "./modules/device-sessions";
import entitlement from "./modules/entitlement";
import events from "./modules/events";
import glossary from "./modules/glossary";
import habit from "./modules/habit";
import health from "./modules/health";
import legal from "./modules/legal";
import lessons from "./modules/lessons";
import mail from "./modules/mail";
import media from "./modules/media";
import notifications from "./modules/notifications";
import plans from "./modules/plans";
import podcast from "./modules/podcast";
import practice from "./modules/practice";
import privacy from "./modules/privacy";
import push from "./modules/push";
import review from "./modules/review";
import roles from "./modules/roles";
import settings from "./modules/settings";
import studio from "./modules/studio";
import users from "./modules/users";
import { defaultWebDist } from "./paths";
import accessPlugin, { type RouteAccess } from "./plugins/access";
import authPlugin from "./plugins/auth";
import errorsPlugin from "./plugins/errors";
import { createFastPath } from "./plugins/fast-path";
import keptReadsPlugin, { createKeptReads } from "./plugins/kept-reads";
import metricsPlugin from "./plugins/metrics";
import openapiPlugin from "./plugins/openapi";
import { requestIdOf } from "./plugins/request-id";
import securityHeaders, { BASE_SECURITY_HEADERS, type HeaderList } from "./plugins/security-headers";
import textInput from "./plugins/text-input";
import webPlugin from "./plugins/web";

export interface BuildOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  logger?: boolean | object;
  /** The time now for the services that count days (lib/clock.ts); the system's by default. */
  clock?: Clock;
}

/**
 * The modules of the API, in the order their routes are registered; each is built after those
 * providing what it needs (lib/module.ts). docs/architecture.md draws them (scripts/architecture.ts).
 */
export const appModules = [
  health,
  auth,
  deviceSessions,
  users,
  roles,
  settings,
  plans,
  billing,
  entitlement,
  courses,
  lessons,
  alignment,
  studio,
  review,
  practice,
  podcast,
  push,
  glossary,
  certificates,
  analytics,
  habit,
  media,
  mail,
  events,
  configs,
  notifications,
  audit,
  privacy,
  legal,
];

type Services = AppServices;

interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  providers: PaymentProviders;
  services: Services;
  /** Tells every API process what changed (lib/change-bus.ts). */
  changes: ChangeBus;
  /** Set by the server on SIGTERM: /api/health/ready answers 503 so the load balancer moves on. */
  lifecycle: { draining: boolean };
  /** The time now for what counts days (lib/clock.ts). */
  clock: Clock;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
    /** Answers reads from memory before routing; its `stats` count them by read (plugins/fast-path.ts). */
    fastPath: ReturnType<typeof createFastPath>;
  }
}

/**
 * Errors of the router itself (a malformed or too long path), in the API's error envelope. They
 * are answered before any hook runs, so the security headers are set here (issue 25).
 */
function routerError(err: FastifyError, reply: FastifyReply, headers: HeaderList) {
  for (const [name, value] of headers) reply.header(name, value);
  const tooLong = err.code === "FST_ERR_MAX_PARAM_LENGTH";
  const status = tooLong || err.code === "FST_ERR_BAD_URL" ? 400 : 500;
  reply.status(status).send({
    statusCode: status,
    code: status === 400 ? "BAD_REQUEST" : "INTERNAL_ERROR",
    message:
      status === 400 ? (tooLong ? "Path parameter too long" : "Malformed URL") : "Something went wrong",
  });
}

/** The zod compilers as Fastify's compiler factories (whose types assume ajv). */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;

/** Builds the Fastify instance: external plugins, then ours, then the modules. No listen(). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  let fastPath: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined;
  let headersNow: () => HeaderList | undefined = () => undefined;
  const metrics = createMetrics();
  let inFlight = 0;
  const requestDone = () => {
    inFlight -= 1;
  };
  const app = Fastify({
    logger: opts.logger ?? false,
    // every log line of a request carries its id (reqId), sent back in X-Request-Id (plugins/metrics.ts)
    requestIdHeader: false,
    genReqId: requestIdOf,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // the server Fastify would make, with the public reads in memory answered before routing
    serverFactory: (handler, options) => {
      const server = http.createServer((req, res) => {
        if (fastPath?.(req, res)) return;
        inFlight += 1;
        res.once("close", requestDone);
        handler(req, res);
      });
      server.keepAliveTimeout = Number(options.keepAliveTimeout ?? 72_000);
      server.requestTimeout = Number(options.requestTimeout ?? 0);
      server.setTimeout(Number(options.connectionTimeout ?? 0));
      return server;
    },
    // path parameters are ids, slugs and tokens: 200 characters at most in their schemas
    routerOptions: { maxParamLength: 256 },
    frameworkErrors: (err, _request, reply) => routerError(err, reply, headersNow() ?? BASE_SECURITY_HEADERS),
    // every schema is zod: Fastify's default compilers (ajv, fast-json-stringify), which it
    // would load at start-up only to be replaced just below, are never loaded
    schemaController: { compilersFactory: zodCompilers },
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
  const providers = createPaymentProviders(config.payments, database.db, app.log);
  const changes = await createChangeBus({
    database,
    redisUrl: config.redisUrl,
    channel: config.changeChannel,
    log: app.log,
  });
  // the answers the routes keep (their `config.keep`), served by one plugin and before routing
  const kept = createKeptReads({ changes, readerFromMemory: (header) => app.readerFromMemory(header) });
  app.addHook("onClose", async () => {
    kept.close();
    await changes.close();
  });
  const clock = opts.clock ?? systemClock;
  let redis: Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import("ioredis");
    redis = new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 });
    app.addHook("onClose", async () => {
      redis?.disconnect();
    });
  }
  const services = (await buildModules(appModules, {
    app,
    config,
    database,
    db: database.db,
    mailer,
    providers,
    changes,
    metrics,
    clock,
    redis,
  })) as Services;
  app.decorate("metrics", metrics);
  const stopObserving = database.observeQueries((seconds, failed) => metrics.query(seconds, failed));
  app.addHook("onClose", async () => {
    stopObserving();
  });
  metrics.setSources({
    inFlight: () => inFlight,
    publicCache: kept.everyone,
    principals: services.principals,
    pool: database.poolStats,
    mailQueue: () => services.mailDeliveries.depth(),
  });
  await app.register(
    fp(
      async (instance) => {
        instance.decorate("deps", {
          config,
          database,
          mailer,
          providers,
          services,
          changes,
          lifecycle: { draining: false },
          clock,
        });
      },
      { name: "deps" },
    ),
  );

  await app.register(metricsPlugin, { metrics, token: config.metricsToken });
  await app.register(securityHeaders);
  headersNow = () => app.currentSecurityHeaders();
  const answerFromMemory = createFastPath({
    read: kept.read,
    headers: () => app.currentSecurityHeaders(),
  });
  metrics.setSources({ fastPath: answerFromMemory });
  app.decorate("fastPath", answerFromMemory);
  fastPath = answerFromMemory;
  await app.register(cookie);
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

  const routeAccess: RouteAccess[] = [];
  app.decorate("routeAccess", routeAccess);

  await app.register(
    async (api) => {
      // where each request comes from, readable by the audit service wherever the work runs
      await api.register(fastifyRequestContext, {
        defaultStoreValues: (request): { meta: RequestMeta } => ({
          meta: { ip: request.ip, userAgent: request.headers["user-agent"] ?? null },
        }),
      });
      await api.register(accessPlugin, { table: routeAccess });
      await api.register(keptReadsPlugin, { kept });
      await api.register(textInput);
      for (const m of appModules) await m.routes?.(api);
    },
    { prefix: "/api" },
  );

  await app.register(webPlugin, { dist: config.webDist ?? defaultWebDist, publicUrl: config.publicUrl });
  return app;
}
