import http from "node:http";
import path from "node:path";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
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
import { createOAuthProviders } from "./integrations/oauth";
import { createPaymentProviders, type PaymentProviders } from "./integrations/payments";
import { createStorage } from "./integrations/storage";
import { announcing, type ChangeBus, createChangeBus } from "./lib/change-bus";
import { type Clock, systemClock } from "./lib/clock";
import { createMetrics, type Metrics } from "./lib/metrics";
import { currentRequestMeta, type RequestMeta } from "./lib/request-meta";
import { createResponseCache, type FastRead, publicFastRead, type ResponseCache } from "./lib/response-cache";
import analyticsRoutes from "./modules/analytics/routes";
import { createAnalyticsService } from "./modules/analytics/service";
import auditRoutes from "./modules/audit/routes";
import { createAuditService } from "./modules/audit/service";
import { createPageCookie } from "./modules/auth/page-cookie";
import { createPrincipalCache } from "./modules/auth/principal-cache";
import authRoutes from "./modules/auth/routes";
import secondFactorRoutes from "./modules/auth/second-factor-routes";
import { createSecondFactorService } from "./modules/auth/second-factor-service";
import { createAuthService } from "./modules/auth/service";
import { createSessionService } from "./modules/auth/session-service";
import { createSocialService } from "./modules/auth/social";
import { createAttemptGuard, databaseAttemptStore, redisAttemptStore } from "./modules/auth/throttle";
import { createTokenSigner } from "./modules/auth/tokens";
import { createReceiptService } from "./modules/billing/receipts";
import billingRoutes from "./modules/billing/routes";
import { createBillingService } from "./modules/billing/service";
import certificateRoutes from "./modules/certificates/routes";
import { createCertificateService } from "./modules/certificates/service";
import configRoutes from "./modules/configs/routes";
import { createConfigService } from "./modules/configs/service";
import courseRoutes from "./modules/courses/routes";
import { createCourseService } from "./modules/courses/service";
import { createEntitlementService } from "./modules/entitlement/service";
import eventRoutes from "./modules/events/routes";
import { createEventService } from "./modules/events/service";
import habitRoutes from "./modules/habit/routes";
import { createHabitService } from "./modules/habit/service";
import healthRoutes from "./modules/health/routes";
import legalRoutes from "./modules/legal/routes";
import lessonRoutes from "./modules/lessons/routes";
import { createLessonService } from "./modules/lessons/service";
import { createCampaignService } from "./modules/mail/campaign-service";
import { createDeliveryQueue } from "./modules/mail/deliveries";
import { createMailOutbox } from "./modules/mail/outbox";
import mailPreferenceRoutes from "./modules/mail/preferences-routes";
import { createMailPreferences } from "./modules/mail/preferences-service";
import mailRoutes from "./modules/mail/routes";
import { createMailTemplateService } from "./modules/mail/template-service";
import { createTransactionalMails } from "./modules/mail/transactional";
import mediaRoutes, { multipartOptions } from "./modules/media/routes";
import { createMediaService } from "./modules/media/service";
import { createMediaUrlSigner } from "./modules/media/signing";
import notificationRoutes from "./modules/notifications/routes";
import { createNotificationService } from "./modules/notifications/service";
import planRoutes from "./modules/plans/routes";
import { createPlanService } from "./modules/plans/service";
import privacyRoutes from "./modules/privacy/routes";
import { createPrivacyService } from "./modules/privacy/service";
import recordingRoutes from "./modules/review/recording-routes";
import { createRecordingService, recordingKeysInUse, recordingLineFiles } from "./modules/review/recordings";
import reviewRoutes from "./modules/review/routes";
import { createReviewService } from "./modules/review/service";
import roleRoutes from "./modules/roles/routes";
import { createRoleService } from "./modules/roles/service";
import settingsRoutes from "./modules/settings/routes";
import { createSettingsService, settingsDefaults } from "./modules/settings/service";
import { createAudienceQuery } from "./modules/users/audience";
import userRoutes from "./modules/users/routes";
import { createUserService } from "./modules/users/service";
import { defaultWebDist } from "./paths";
import accessPlugin, { type RouteAccess } from "./plugins/access";
import authPlugin from "./plugins/auth";
import errorsPlugin from "./plugins/errors";
import { createFastPath } from "./plugins/fast-path";
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

function createServices(
  app: FastifyInstance,
  config: Config,
  database: Database,
  mailer: Mailer,
  providers: PaymentProviders,
  changes: ChangeBus,
  metrics: Metrics,
  clock: Clock,
  redis: Redis | undefined,
) {
  const { db } = database;
  // the only writer of the audit log: every module records through it
  const audit = createAuditService({ db, meta: currentRequestMeta });
  const settings = createSettingsService({ db, defaults: settingsDefaults(config), changes, audit });
  const roles = announcing(createRoleService(db), changes, { createRole: ["roles"], deleteRole: ["roles"] });
  // inside a caller's transaction nothing is told: the caller tells after its commit
  const own = (tx: unknown) => tx === undefined || tx === db;
  const users = announcing(createUserService(db, roles), changes, {
    update: (id, _patch, tx) => (own(tx) ? [`user:${id}`] : []),
    setRole: (id, _title, tx) => (own(tx) ? [`user:${id}`] : []),
  });
  const signer = createTokenSigner(config.jwtSecret, config.accessTokenTtl, {
    previous: config.jwtPreviousSecret,
  });
  const sessions = announcing(createSessionService(db, signer, config.refreshTokenTtl, changes), changes, {
    revoke: (sessionId, _reason, tx) => (own(tx) ? [`session:${sessionId}`] : []),
    revokeAllForUser: (userId, _reason, _keep, tx) => (own(tx) ? [`user:${userId}`] : []),
  });
  const mailTemplates = createMailTemplateService(db);
  const mailOutbox = createMailOutbox({ db });
  const transactionalMails = createTransactionalMails({
    publicUrl: config.publicUrl,
    findActive: (slug, tx) => mailTemplates.findActive(slug, tx),
    log: app.log,
  });
  const secondFactor = createSecondFactorService({ db, users, settings });
  // password attempts per account: in Redis when there is one (like the rate limits), else a table
  // (one namespace per deployment sharing a Redis, like the change channel)
  const attempts = createAttemptGuard({
    store: redis
      ? redisAttemptStore(redis, `parlons-attempts:${config.changeChannel}:`)
      : databaseAttemptStore(db),
  });
  const auth = createAuthService({
    db,
    attempts,
    outbox: mailOutbox,
    users,
    sessions,
    secondFactor,
    mailer,
    settings,
    audit,
    publicUrl: config.publicUrl,
    log: app.log,
    changes,
    mails: transactionalMails,
  });
  const social = createSocialService({
    db,
    users,
    auth,
    settings,
    providers: createOAuthProviders(config.oauth),
    publicUrl: config.publicUrl,
    secret: config.jwtSecret,
    log: app.log,
  });
  const notifications = createNotificationService({ db });
  const plans = announcing(createPlanService({ db, providers }), changes, {
    create: ["plans"],
    update: ["plans"],
    remove: ["plans"],
    providerPlanIdOf: ["plans"],
  });
  const receipts = createReceiptService({
    db,
    users,
    plans,
    settings,
    outbox: mailOutbox,
    mails: transactionalMails,
    publicUrl: config.publicUrl,
  });
  const billing = createBillingService({
    db,
    providers,
    plans,
    users,
    notifications,
    receipts,
    publicUrl: config.publicUrl,
    log: app.log,
    changes,
    onPaymentEvent: (provider, outcome) => metrics.payment(provider, outcome),
  });
  // what a principal's plan opens is read through the principal cache (from memory until it changes)
  const rawEntitlement = createEntitlementService({ billing });
  const principals = createPrincipalCache({ signer, sessions, users, entitlement: rawEntitlement, changes });
  const entitlement = { ...rawEntitlement, accessOf: principals.accessOf };
  // spec §4: after a login on a paid plan, the provider's subscription is checked
  auth.onLogin((userId) => billing.checkAtLogin(userId));
  const media = createMediaService({
    db,
    storage: createStorage(config.media),
    alsoInUse: [recordingKeysInUse],
  });
  const mediaUrls = createMediaUrlSigner({ secret: config.jwtSecret, ttlSeconds: config.media.urlTtl });
  const pageCookie = createPageCookie(config.jwtSecret);
  // lessons change course lists too (lesson counts, durations)
  const lessons = announcing(
    createLessonService({
      db,
      media,
      lineFiles: recordingLineFiles({ trash: media.trash }),
      urls: mediaUrls,
      audioBaseUrl: () => settings.audioBaseUrl(),
    }),
    changes,
    {
      create: ["courses"],
      update: ["courses"],
      updateColumn: ["courses"],
      updateLinks: ["courses"],
      replaceCues: ["courses"],
      delete: ["courses"],
      saveProgress: (userId) => [`progress:${userId}`],
    },
  );
  const courses = announcing(createCourseService({ db, lessons, media }), changes, {
    create: ["courses"],
    update: ["courses"],
    setPopular: ["courses"],
    delete: ["courses"],
  });
  const review = createReviewService({ db, lessons, courses, clock });
  const analytics = createAnalyticsService({ db });
  const certificates = createCertificateService({ db, users, courses, lessons, audit });
  const recordings = createRecordingService({
    db,
    storage: media.storage,
    trash: media.trash,
    lessons,
    mustOpen: review.mustOpen,
  });
  const mailPreferences = createMailPreferences({
    db,
    secret: config.jwtSecret,
    previousSecret: config.jwtPreviousSecret,
    publicUrl: config.publicUrl,
    findUser: (id) => users.findById(id),
  });
  const habit = createHabitService({
    db,
    users,
    review,
    preferences: mailPreferences,
    outbox: mailOutbox,
    mails: transactionalMails,
    publicUrl: config.publicUrl,
    clock,
  });
  const campaigns = createCampaignService({
    db,
    audience: createAudienceQuery(db),
    templates: mailTemplates,
    preferences: mailPreferences,
    outbox: mailOutbox,
    courseExists: async (id) => (await courses.findByIds([id])).length > 0,
    publicUrl: config.publicUrl,
  });
  const mailDeliveries = createDeliveryQueue({
    db,
    publicUrl: config.publicUrl,
    preferences: mailPreferences,
  });
  const events = createEventService({
    db,
    users,
    notifications,
    audit,
    entitlement,
    outbox: mailOutbox,
    mails: transactionalMails,
    settings,
    publicUrl: config.publicUrl,
  });
  const configs = createConfigService({ db, audit });
  const privacy = createPrivacyService({
    db,
    recordings,
    sessions,
    billing,
    audit,
    mailer,
    changes,
    log: app.log,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    syncMaxRows: config.exportSyncMaxRows,
  });
  return {
    privacy,
    audit,
    settings,
    roles,
    users,
    signer,
    sessions,
    principals,
    pageCookie,
    attempts,
    auth,
    secondFactor,
    social,
    entitlement,
    plans,
    billing,
    receipts,
    media,
    mediaUrls,
    lessons,
    courses,
    review,
    certificates,
    analytics,
    recordings,
    habit,
    mailPreferences,
    mailTemplates,
    campaigns,
    mailDeliveries,
    mailOutbox,
    transactionalMails,
    events,
    configs,
    notifications,
  };
}

type Services = ReturnType<typeof createServices>;

interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  providers: PaymentProviders;
  services: Services;
  /** Tells every API process what changed (lib/change-bus.ts). */
  changes: ChangeBus;
  /** Public answers kept serialised in memory (lib/response-cache.ts). */
  publicCache: ResponseCache;
  /** The reads answered before routing (plugins/fast-path.ts); a route adds its own at registration. */
  fastReads: FastRead[];
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
  const publicCache = createResponseCache({ changes });
  const fastReads: FastRead[] = [publicFastRead(publicCache)];
  app.addHook("onClose", async () => {
    publicCache.close();
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
  const services = createServices(app, config, database, mailer, providers, changes, metrics, clock, redis);
  // reset requests and activation resends finish after their answer: before the database closes
  app.addHook("onClose", () => services.auth.settled());
  app.decorate("metrics", metrics);
  const stopObserving = database.observeQueries((seconds, failed) => metrics.query(seconds, failed));
  app.addHook("onClose", async () => {
    stopObserving();
  });
  metrics.setSources({
    inFlight: () => inFlight,
    publicCache,
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
          publicCache,
          fastReads,
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
    reads: fastReads,
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
      await api.register(textInput);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(secondFactorRoutes);
      await api.register(userRoutes);
      await api.register(roleRoutes);
      await api.register(settingsRoutes);
      await api.register(planRoutes);
      await api.register(billingRoutes);
      await api.register(multipart, multipartOptions);
      await api.register(courseRoutes);
      await api.register(lessonRoutes);
      await api.register(reviewRoutes);
      await api.register(certificateRoutes);
      await api.register(analyticsRoutes);
      await api.register(recordingRoutes);
      await api.register(habitRoutes);
      await api.register(mediaRoutes);
      await api.register(mailRoutes);
      await api.register(mailPreferenceRoutes);
      await api.register(eventRoutes);
      await api.register(configRoutes);
      await api.register(notificationRoutes);
      await api.register(auditRoutes);
      await api.register(privacyRoutes);
      await api.register(legalRoutes);
    },
    { prefix: "/api" },
  );

  await app.register(webPlugin, { dist: config.webDist ?? defaultWebDist, publicUrl: config.publicUrl });
  return app;
}
