import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** Every environment variable the API reads, validated once at start-up. */
export const envFields = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.url().optional(),
  PUBLIC_URL: z.url().optional(),
  /**
   * The origin browsers show when they use a passkey, when it is not PUBLIC_URL's (a site reached
   * by a name while PUBLIC_URL is an address: passkeys need a domain name). Its host is the
   * relying party id every passkey is bound to.
   */
  PASSKEY_ORIGIN: z
    .url()
    .refine(
      (v) => /^https?:\/\/[^/]+\/?$/.test(v),
      "PASSKEY_ORIGIN must be an origin (scheme, host, port): no path",
    )
    .optional(),
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters").optional(),
  /**
   * The secret JWT_SECRET replaced, kept for a while after a rotation: access tokens it signed
   * (their `kid` names it) stay valid until they expire, and unsubscribe links keep working.
   */
  JWT_SECRET_PREVIOUS: z.string().min(32, "JWT_SECRET_PREVIOUS must be at least 32 characters").optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86400).default(900),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .default(60 * 60 * 24 * 30),
  ADMIN_EMAIL: z.email().default("admin@parlons.local"),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  /** Seeds the public contact address of the settings (ADMIN_EMAIL when unset); then edited in /setting. */
  CONTACT_EMAIL: z.email().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Parlons <no-reply@parlons.local>"),
  REDIS_URL: z.string().optional(),
  /** Redis pub/sub channel, or PostgreSQL NOTIFY channel, on which API processes announce changes. */
  CHANGE_CHANNEL: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "CHANGE_CHANNEL is lower-case letters, digits and _ (63 at most)")
    .default("parlons_changes"),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  /**
   * Answers that tell whether an address has an account (email-exists, username-exists, sign-up
   * refused for a taken address), per client and hour.
   */
  RATE_LIMIT_LOOKUP_MAX: z.coerce.number().int().min(1).default(20),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
  SEED_DEMO: bool.default(true),
  /** Social sign-in: a provider is offered only when its id AND secret are set. */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_APP_ID: z.string().optional(),
  FACEBOOK_APP_SECRET: z.string().optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  /** The providers' endpoints (tests point them at a local fake). */
  GOOGLE_AUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_TOKENINFO_URL: z.url().default("https://oauth2.googleapis.com/tokeninfo"),
  FACEBOOK_DIALOG_URL: z.url().default("https://www.facebook.com/v19.0/dialog/oauth"),
  FACEBOOK_GRAPH_URL: z.url().default("https://graph.facebook.com/v19.0"),
  GITHUB_OAUTH_URL: z.url().default("https://github.com/login/oauth"),
  GITHUB_API_URL: z.url().default("https://api.github.com"),
  /** Where media files live: "disk" (DATA_DIR/media) or "s3" (an S3-compatible bucket, S3_* below). */
  STORAGE_DRIVER: z.enum(["disk", "s3"]).default("disk"),
  /** The S3 API's base URL: https://s3.eu-west-3.amazonaws.com, http://127.0.0.1:9000 (MinIO)… */
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "S3_ENDPOINT must be an http(s) URL" }).optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "S3_REGION looks like eu-west-3")
    .default("us-east-1"),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "S3_BUCKET is not a valid bucket name")
    .optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style URLs (endpoint/bucket/key), what MinIO needs; false for bucket.endpoint/key. */
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** Folder inside the bucket that every key goes under, e.g. "parlons/". */
  S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/,
      "S3_PREFIX is folder names (letters, digits, . _ -) separated by /",
    )
    .optional(),
  /**
   * The aligner's reference voice: "auto" uses espeak-ng when it is installed (synthesis mode),
   * "off" analyses the signal alone (signal mode), whatever the machine has.
   */
  ALIGN_SYNTHESIS: z.enum(["auto", "off"]).default("auto"),
  SESSION_SPEECH: z.enum(["auto", "off"]).default("auto"),
  /**
   * Where bilingual dictionaries in dictd format are (Debian's dict-freedict-* packages install
   * them in /usr/share/dictd); a tapped word is looked up in the one from the course's language to
   * the reader's when its files are there. Empty: no dictionary.
   */
  DICTIONARY_DIR: z.string().default("/usr/share/dictd"),
  /**
   * Web Push (VAPID) keys: the public key (65-byte uncompressed P-256 point) and the private key
   * (32 bytes), both base64url, as `npx web-push generate-vapid-keys` prints them. Unset: a pair is
   * generated into DATA_DIR/vapid-keys.json at the first start and kept there.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, "VAPID_PUBLIC_KEY must be a base64url P-256 public key (87 characters)")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "VAPID_PRIVATE_KEY must be a base64url P-256 private key (43 characters)")
    .optional(),
  /** Who push services contact about this sender (mailto: or https:); default: mailto:ADMIN_EMAIL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "VAPID_SUBJECT must be a mailto: or https: URL")
    .optional(),
  /**
   * Hosts of the push services a browser subscription may point at (a host or any of its
   * subdomains, https only; a loopback address listed here may use http, for tests): the server
   * posts reminders there, and nowhere else.
   */
  PUSH_SERVICE_HOSTS: z
    .string()
    .default("fcm.googleapis.com,updates.push.services.mozilla.com,notify.windows.com,push.apple.com"),
  /** Seconds a signed audio URL stays valid (URLs are stable for this long, then live up to twice it). */
  MEDIA_URL_TTL: z.coerce.number().int().min(60).max(86_400).default(600),
  /**
   * nginx internal location that serves DATA_DIR/media (disk storage): the audio route checks
   * the signature, then answers `X-Accel-Redirect: <prefix><key>` and nginx sends the bytes.
   */
  AUDIO_ACCEL_PREFIX: z
    .string()
    .regex(
      /^\/([A-Za-z0-9._~-]+\/)*$/,
      "AUDIO_ACCEL_PREFIX is a path that starts and ends with /, e.g. /_media/",
    )
    .optional(),
  /** Seeds the settings' audio source on first start: a CDN in front of this server; this server when unset. */
  AUDIO_BASE_URL: z.url().optional(),
  PAYMENT_PROVIDER: z.enum(["paypal", "demo"]).optional(),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_WEBHOOK_ID: z.string().optional(),
  PAYPAL_API_BASE: z.url().default("https://api-m.sandbox.paypal.com"),
  PAYPAL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Above this many rows, a learner's data export is a job whose download link is mailed. */
  EXPORT_SYNC_MAX_ROWS: z.coerce.number().int().min(0).max(1_000_000).default(5000),
  /** Bearer token that GET /metrics asks for (Prometheus `authorization` / `bearer_token`); /metrics is 404 when unset. */
  METRICS_TOKEN: z
    .string()
    .min(24, "METRICS_TOKEN must be at least 24 characters (e.g. openssl rand -hex 24)")
    .regex(/^[\x21-\x7e]+$/, "METRICS_TOKEN is printable ASCII without spaces")
    .optional(),
  /**
   * On SIGTERM, how long the process keeps serving while /api/health/ready answers 503, so the
   * load balancer stops sending it requests first (above its check interval × failures to go down).
   */
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).optional(),
  /** On SIGTERM, the longest the whole stop may take (requests in flight, jobs) before the process exits with 1. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /**
   * How long a mail worker owns the deliveries it claimed: after it, a process that died mid-batch
   * has its rows sent by another. Longer than a batch of SMTP sends can take.
   */
  MAIL_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(5 * 60_000),
  /** How often each process looks for campaign mail to send. */
  MAIL_WORKER_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  /** How often each process looks for study reminders to queue (learners whose hour it is). */
  STUDY_REMINDERS_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(3_600_000)
    .default(5 * 60_000),
  SUBSCRIPTION_SYNC_INTERVAL: z.coerce
    .number()
    .int()
    .min(10)
    .default(60 * 60),
});

export const envSchema = envFields.superRefine((env, ctx) => {
  if (env.JWT_SECRET_PREVIOUS !== undefined && env.JWT_SECRET === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["JWT_SECRET_PREVIOUS"],
      message: "set JWT_SECRET too (the new secret; the previous one only verifies)",
    });
  }
  if (env.JWT_SECRET_PREVIOUS !== undefined && env.JWT_SECRET_PREVIOUS === env.JWT_SECRET) {
    ctx.addIssue({
      code: "custom",
      path: ["JWT_SECRET_PREVIOUS"],
      message: "is the same as JWT_SECRET: set the new secret in JWT_SECRET, the old one here",
    });
  }
  if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [env.VAPID_PUBLIC_KEY === undefined ? "VAPID_PUBLIC_KEY" : "VAPID_PRIVATE_KEY"],
      message:
        "set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither (a pair is then kept in DATA_DIR)",
    });
  }
  if (env.STORAGE_DRIVER !== "s3") return;
  if (env.AUDIO_ACCEL_PREFIX) {
    ctx.addIssue({
      code: "custom",
      path: ["AUDIO_ACCEL_PREFIX"],
      message: "works with STORAGE_DRIVER=disk only (nginx reads the files from DATA_DIR/media)",
    });
  }
  for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
    if (!env[name])
      ctx.addIssue({ code: "custom", path: [name], message: "required when STORAGE_DRIVER=s3" });
  }
});

export type Env = z.infer<typeof envSchema>;
