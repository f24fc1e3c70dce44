import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
    userAgent: text("user_agent"),
    ip: text("ip"),
    /** The second factor this session was opened with (totp, recovery, passkey), null for none. */
    secondFactor: text("second_factor"),
    /** The last refresh or signed-in request, written at most every few minutes (last-seen.ts). */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** One row per refresh token issued; a used token presented again revokes its session. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: id(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash),
    index("refresh_tokens_session_idx").on(t.sessionId),
  ],
);

export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A TypeScript-only enum (a plain text column): a new kind needs no migration. */
    kind: text("kind", {
      enum: ["activation", "password_reset", "social_login", "account_unlock"],
    }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("one_time_tokens_hash_key").on(t.tokenHash),
    index("one_time_tokens_user_idx").on(t.userId),
  ],
);

export const oauthAccounts = pgTable(
  "oauth_accounts",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("oauth_accounts_provider_key").on(t.provider, t.providerUserId)],
);

/**
 * A user's authenticator app (TOTP, RFC 6238) and the failed code count that locks code entry.
 * The secret is kept as it is (base32): a TOTP verifier needs it in clear (docs/decisions.md).
 */
export const totpCredentials = pgTable("totp_credentials", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** The secret of the app set up and confirmed with a code; null while none is. */
  secret: text("secret"),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  /** A secret shown in the profile, waiting for its first code. */
  pendingSecret: text("pending_secret"),
  /** The last 30-second step accepted: a code is used once. */
  lastStep: bigint("last_step", { mode: "number" }),
  /** Wrong codes (TOTP or recovery) since the last right one or lock. */
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One-use recovery codes, stored hashed; a new set replaces the old one. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("recovery_codes_user_idx").on(t.userId),
    uniqueIndex("recovery_codes_hash_key").on(t.codeHash),
  ],
);

/**
 * A sign-in whose password (or provider) was right and that waits for a second factor: the
 * ticket is stored hashed, lives a few minutes and allows a few codes.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ticketHash: text("ticket_hash").notNull(),
    /** How the first factor was proven: password or social. */
    method: text("method", { enum: ["password", "social"] }).notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("sign_in_challenges_ticket_key").on(t.ticketHash),
    index("sign_in_challenges_user_idx").on(t.userId),
  ],
);

/**
 * Attempts at a secret (a password, later a second factor) counted per account, whatever the
 * address they come from (modules/auth/throttle.ts). `key` is a hash of what was attempted on
 * (`password:<email>`), so an address typed by mistake is not stored. Used when REDIS_URL is unset.
 */
export const authAttempts = pgTable(
  "auth_attempts",
  {
    key: text("key").primaryKey(),
    /** Attempts since the last success (each counted before its secret is checked). */
    failures: integer("failures").notNull(),
    /** No attempt is checked before this time. */
    nextAt: timestamp("next_at", { withTimezone: true }).notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("auth_attempts_last_idx").on(t.lastAt)],
);

/**
 * A user's passkeys (WebAuthn credentials, modules/auth/passkey-service.ts): each signs in alone
 * (discoverable, user verification required) or serves as a second factor after a password.
 */
export const passkeyCredentials = pgTable(
  "passkey_credentials",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The authenticator's credential id (base64url), as the browser names it. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key (base64url): public, but useless outside this site. */
    publicKey: text("public_key").notNull(),
    /** The signature counter last seen (0 for authenticators that keep none). */
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    /** How the browser reaches it (internal, usb, hybrid…), as it said at registration. */
    transports: text("transports").array().notNull().default([]),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("passkey_credentials_credential_key").on(t.credentialId),
    index("passkey_credentials_user_idx").on(t.userId),
  ],
);

/**
 * WebAuthn challenges handed out and not yet answered: each is deleted by the answer that uses
 * it (once), and refused after a few minutes. `userId` is the account it was made for (null for
 * a sign-in with a passkey alone, where the passkey names its account).
 */
export const passkeyChallenges = pgTable(
  "passkey_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose", { enum: ["register", "second_factor", "sign_in"] }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("passkey_challenges_expires_idx").on(t.expiresAt)],
);
