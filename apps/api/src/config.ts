import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { type Env, envFields, envSchema } from "./env";
import type { S3StorageOptions } from "./integrations/storage/s3";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./lib/private-files";
import { type VapidKeys, vapidKeys } from "./lib/vapid-keys";

export interface Config {
  env: Env["NODE_ENV"];
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  /** WebAuthn's relying party: the origin passkeys are used on and its host, the id they are bound to. */
  passkey: { origin: string; rpId: string; rpName: string };
  jwtSecret: string;
  /** The secret before a rotation: still verifies access tokens and unsubscribe links, signs nothing. */
  jwtPreviousSecret: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  admin: { email: string; password: string | undefined };
  /** Seed of the settings' contact address. */
  contactEmail: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  changeChannel: string;
  rateLimit: { authMax: number; windowMs: number; lookupMax: number };
  trustProxy: boolean;
  logLevel: Env["LOG_LEVEL"];
  webDist: string | undefined;
  seedDemo: boolean;
  /** Providers whose id and secret are set, in the order the buttons show. */
  socialProviders: string[];
  /** Credentials and endpoints of each configured provider; secrets never leave the server. */
  oauth: OAuthConfig;
  secureCookies: boolean;
  media: MediaConfig;
  payments: PaymentsConfig;
  /** The Bearer token of GET /metrics; undefined: no metrics endpoint (404). */
  metricsToken: string | undefined;
  exportSyncMaxRows: number;
  /** SIGTERM: serve with /api/health/ready at 503 for drainDelayMs, then stop within timeoutMs. */
  shutdown: { drainDelayMs: number; timeoutMs: number };
  /** The campaign mail worker: its claim lease and how often it looks for work. */
  mailWorker: { leaseMs: number; intervalMs: number };
  /** How often the study reminder job runs. */
  studyRemindersIntervalMs: number;
  /** The aligner: "auto" uses espeak-ng when installed, "off" the signal alone. */
  alignSynthesis: "auto" | "off";
  /** The hands-free session's MP3: "auto" speaks recall prompts with espeak-ng when installed, "off" renders echo items only. */
  sessionSpeech: "auto" | "off";
  /** Directory of the dictd dictionaries a tapped word is looked up in; none when undefined. */
  dictionaryDir: string | undefined;
  /** Web Push: the VAPID keys and subject, and the hosts subscriptions may point at. */
  push: { publicKey: string; privateKey: string; subject: string; serviceHosts: string[] };
}

export interface PaymentsConfig {
  /** paypal when its credentials are set (or forced), otherwise the embedded demo checkout. */
  provider: "paypal" | "demo";
  /** Set when provider is paypal; the secret never leaves the server. */
  paypal:
    | {
        clientId: string;
        clientSecret: string;
        webhookId: string | undefined;
        apiBase: string;
        timeoutMs: number;
      }
    | undefined;
  /** Seconds between two runs of the subscription sync job. */
  syncIntervalSeconds: number;
}

interface OAuthProviderConfig {
  clientId: string;
  /** Never logged nor sent to the browser. */
  clientSecret: string;
}

export interface OAuthConfig {
  google: (OAuthProviderConfig & { authUrl: string; tokenUrl: string; tokeninfoUrl: string }) | undefined;
  facebook: (OAuthProviderConfig & { dialogUrl: string; graphUrl: string }) | undefined;
  github: (OAuthProviderConfig & { oauthUrl: string; apiUrl: string }) | undefined;
}

export interface MediaConfig {
  driver: "disk" | "s3";
  /** Root folder of the disk driver; with s3, uploads in progress still go to its .tmp folder. */
  dir: string;
  /** Set when driver is s3. */
  s3: S3Config | undefined;
  urlTtl: number;
  /** nginx internal location of DATA_DIR/media (X-Accel-Redirect), disk driver only. */
  accelPrefix: string | undefined;
  /**
   * Seed of the settings' audio source (no trailing slash): a CDN base URL, or "" for relative
   * URLs on this server. Audio URLs follow the settings, not this value, once the row exists.
   */
  audioBaseUrl: string;
}

/** The S3 store's settings (the secret is never logged nor put in an error message). */
type S3Config = Required<Omit<S3StorageOptions, "tempRoot" | "timeoutMs" | "attempts">>;

export class ConfigError extends Error {}

/**
 * Where the data is, alone: what the operations commands (backup, restore, migrate-to-postgres)
 * read. Unlike loadConfig it writes nothing (no secret is created in DATA_DIR).
 */
export function loadLocations(source: NodeJS.ProcessEnv = process.env): {
  dataDir: string;
  databaseUrl: string | undefined;
} {
  const parsed = envFields
    .pick({ DATA_DIR: true, DATABASE_URL: true })
    .safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== "")));
  if (!parsed.success)
    throw new ConfigError(
      `Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  return { dataDir: path.resolve(parsed.data.DATA_DIR), databaseUrl: parsed.data.DATABASE_URL };
}

/** Reads a generated secret from DATA_DIR, creating it on first start. */
function persistedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: PRIVATE_FILE_MODE });
  return secret;
}

function pushKeys(dataDir: string, fromEnv: Partial<VapidKeys>): VapidKeys {
  try {
    return vapidKeys(dataDir, fromEnv);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const port = env.PORT;
  const trim = (url: string) => url.replace(/\/+$/, "");
  const oauth: OAuthConfig = {
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            authUrl: env.GOOGLE_AUTH_URL,
            tokenUrl: env.GOOGLE_TOKEN_URL,
            tokeninfoUrl: env.GOOGLE_TOKENINFO_URL,
          }
        : undefined,
    facebook:
      env.FACEBOOK_APP_ID && env.FACEBOOK_APP_SECRET
        ? {
            clientId: env.FACEBOOK_APP_ID,
            clientSecret: env.FACEBOOK_APP_SECRET,
            dialogUrl: env.FACEBOOK_DIALOG_URL,
            graphUrl: trim(env.FACEBOOK_GRAPH_URL),
          }
        : undefined,
    github:
      env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
        ? {
            clientId: env.GITHUB_CLIENT_ID,
            clientSecret: env.GITHUB_CLIENT_SECRET,
            oauthUrl: trim(env.GITHUB_OAUTH_URL),
            apiUrl: trim(env.GITHUB_API_URL),
          }
        : undefined,
  };
  const socialProviders = (["google", "facebook", "github"] as const).filter((p) => oauth[p] !== undefined);
  const paypalConfigured = Boolean(env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET);
  const paymentProvider = env.PAYMENT_PROVIDER ?? (paypalConfigured ? "paypal" : "demo");
  if (paymentProvider === "paypal" && !paypalConfigured) {
    throw new ConfigError(
      "Invalid configuration:\n  PAYMENT_PROVIDER: paypal needs PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET",
    );
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  const passkeyOrigin = new URL(env.PASSKEY_ORIGIN ?? publicUrl).origin;
  const passkeyHost = new URL(passkeyOrigin).hostname;
  // browsers use passkeys only on https (or http://localhost) and a name, never an address
  const usable =
    (passkeyOrigin.startsWith("https://") || passkeyHost === "localhost") &&
    !isIP(passkeyHost.replace(/^\[|\]$/g, ""));
  if (env.PASSKEY_ORIGIN && !usable) {
    throw new ConfigError(
      "Invalid configuration:\n  PASSKEY_ORIGIN: passkeys need an https origin with a domain name (or http://localhost)",
    );
  }
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    publicUrl,
    passkey: { origin: passkeyOrigin, rpId: passkeyHost, rpName: "Parlons" },
    jwtSecret: env.JWT_SECRET ?? persistedSecret(dataDir, "jwt-secret"),
    jwtPreviousSecret: env.JWT_SECRET_PREVIOUS,
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    refreshTokenTtl: env.REFRESH_TOKEN_TTL,
    admin: { email: env.ADMIN_EMAIL.toLowerCase(), password: env.ADMIN_PASSWORD },
    contactEmail: (env.CONTACT_EMAIL ?? env.ADMIN_EMAIL).toLowerCase(),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    redisUrl: env.REDIS_URL,
    changeChannel: env.CHANGE_CHANNEL,
    rateLimit: {
      authMax: env.RATE_LIMIT_AUTH_MAX,
      windowMs: env.RATE_LIMIT_WINDOW_MS,
      lookupMax: env.RATE_LIMIT_LOOKUP_MAX,
    },
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    webDist: env.WEB_DIST,
    seedDemo: env.SEED_DEMO,
    socialProviders,
    oauth,
    metricsToken: env.METRICS_TOKEN,
    exportSyncMaxRows: env.EXPORT_SYNC_MAX_ROWS,
    // a load balancer needs seconds to see the 503; a developer's Ctrl-C needs none
    shutdown: {
      drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS ?? (env.NODE_ENV === "production" ? 5000 : 0),
      timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    },
    mailWorker: { leaseMs: env.MAIL_LEASE_MS, intervalMs: env.MAIL_WORKER_INTERVAL_MS },
    studyRemindersIntervalMs: env.STUDY_REMINDERS_INTERVAL_MS,
    alignSynthesis: env.ALIGN_SYNTHESIS,
    sessionSpeech: env.SESSION_SPEECH,
    dictionaryDir: env.DICTIONARY_DIR.trim() || undefined,
    push: {
      ...pushKeys(dataDir, { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }),
      subject: env.VAPID_SUBJECT ?? `mailto:${env.ADMIN_EMAIL.toLowerCase()}`,
      serviceHosts: env.PUSH_SERVICE_HOSTS.split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    },
    secureCookies: publicUrl.startsWith("https://"),
    media: {
      driver: env.STORAGE_DRIVER,
      dir: path.join(dataDir, "media"),
      s3:
        env.STORAGE_DRIVER === "s3" &&
        env.S3_ENDPOINT &&
        env.S3_BUCKET &&
        env.S3_ACCESS_KEY_ID &&
        env.S3_SECRET_ACCESS_KEY
          ? {
              endpoint: env.S3_ENDPOINT.replace(/\/+$/, ""),
              region: env.S3_REGION,
              bucket: env.S3_BUCKET,
              accessKeyId: env.S3_ACCESS_KEY_ID,
              secretAccessKey: env.S3_SECRET_ACCESS_KEY,
              forcePathStyle: env.S3_FORCE_PATH_STYLE,
              prefix: env.S3_PREFIX ? `${env.S3_PREFIX.replace(/\/+$/, "")}/` : "",
            }
          : undefined,
      urlTtl: env.MEDIA_URL_TTL,
      accelPrefix: env.AUDIO_ACCEL_PREFIX,
      audioBaseUrl: (env.AUDIO_BASE_URL ?? "").replace(/\/+$/, ""),
    },
    payments: {
      provider: paymentProvider,
      paypal:
        paymentProvider === "paypal" && env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET
          ? {
              clientId: env.PAYPAL_CLIENT_ID,
              clientSecret: env.PAYPAL_CLIENT_SECRET,
              webhookId: env.PAYPAL_WEBHOOK_ID,
              apiBase: env.PAYPAL_API_BASE.replace(/\/+$/, ""),
              timeoutMs: env.PAYPAL_TIMEOUT_MS,
            }
          : undefined,
      syncIntervalSeconds: env.SUBSCRIPTION_SYNC_INTERVAL,
    },
  };
}
