import { randomUUID } from "node:crypto";
import {
  langPrefix,
  normalizeEmail,
  PERMISSIONS,
  type SecondFactorChallenge,
  type SelfRegisterBody,
  type Speak,
  toLocale,
  type UserStatus,
} from "@parlons/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import type { Mailer } from "../../integrations/mail/mailer";
import type { ChangeBus } from "../../lib/change-bus";
import { AppError, badRequest, forbidden, unauthenticated, validationFailed } from "../../lib/errors";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../lib/passwords";
import { hashToken } from "../../lib/secret-tokens";
import type { AuditService } from "../audit/service";
import type { MailOutbox } from "../mail/outbox";
import type { TransactionalMails } from "../mail/transactional";
import type { SettingsService } from "../settings/service";
import type { UserService } from "../users/service";
import { createOneTimeTokens } from "./one-time-tokens";
import type { SecondFactorService } from "./second-factor-service";
import type { IssuedTokens, SessionService } from "./session-service";
import { type AttemptGuard, createAttemptGuard, databaseAttemptStore } from "./throttle";

const ACTIVATION_TTL_MS = 48 * 3600_000;
const RESET_TTL_MS = 3600_000;
const UNLOCK_TTL_MS = 24 * 3600_000;

/** What the password attempts on an address are counted under (the same whether it has an account). */
const passwordSubject = (email: string) => `password:${email}`;

export interface AuthDeps {
  db: Db;
  users: UserService;
  sessions: SessionService;
  mailer: Mailer;
  settings: Pick<SettingsService, "registrationsOpen">;
  /** Records failed sign-ins and staff sign-ins. */
  audit: Pick<AuditService, "record">;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Texts of the activation, welcome and reset mails (the mail module's templates). */
  mails: TransactionalMails;
  /** Told `user:<id>` after a reset ended a user's sessions. */
  changes?: ChangeBus;
  /** Asks for a second factor before a session opens; none asked when absent. */
  secondFactor?: Pick<SecondFactorService, "challengeFor">;
  /** Counts password attempts per account (one on `db` when absent). */
  attempts?: AttemptGuard;
  /** Where the lock mail is queued. */
  outbox: Pick<MailOutbox, "enqueue">;
}

/** How the identity was proven: a password, a provider, or a passkey alone (both factors at once). */
type FirstFactor = "password" | "social" | "passkey";

/** Runs after each sign-in opened a session (billing's subscription check, the new device mail). */
export type LoginHook = (userId: string, sessionId: string) => Promise<void>;

export function createAuthService(deps: AuthDeps) {
  const { db, users, sessions, mailer, settings, publicUrl, log, mails, audit } = deps;
  const attempts = deps.attempts ?? createAttemptGuard({ store: databaseAttemptStore(db) });
  const { outbox } = deps;
  const loginHooks: LoginHook[] = [];
  /** Work an answer does not wait for (what it does must not show in how long the answer takes). */
  const pending = new Set<Promise<void>>();
  function inBackground(what: string, work: () => Promise<void>) {
    // started on the next turn of the event loop, once the answer is written: with the embedded
    // database the queries run on this thread and would otherwise delay it
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: unknown) => log.error({ err }, `${what} failed`))
      .finally(() => pending.delete(done));
    pending.add(done);
  }
  /** Links open the web app in the user's language: French unprefixed, the others under /<code>. */
  const { issueToken, findToken, consumeToken } = createOneTimeTokens(db);
  const link = (lang: Speak, pathname: string) => `${publicUrl}${langPrefix(toLocale(lang))}${pathname}`;

  /** The owner of an account that wrong passwords just locked gets a link that unlocks it (queued). */
  async function mailUnlockLink(user: { id: string; email: string; fullName: string; speak: Speak }) {
    const token = await issueToken(user.id, "account_unlock", UNLOCK_TTL_MS);
    const mail = await mails.compose("account-locked", user, link(user.speak, `/unlock/${token}`));
    await outbox.enqueue({
      key: `account-locked:${hashToken(token)}`,
      userId: user.id,
      to: user.email,
      ...mail,
    });
  }

  /**
   * The owner is told that their password changed (queued, once per change): a change they did not
   * make is caught, and the mail says how to take the account back.
   */
  async function mailPasswordChanged(userId: string) {
    const user = await users.findById(userId);
    if (!user) return;
    const when = `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`;
    const mail = await mails.compose("password-changed", user, link(user.speak, "/forgot-password"), {
      details: when,
    });
    await outbox.enqueue({
      key: `password-changed:${userId}:${randomUUID()}`,
      userId,
      to: user.email,
      ...mail,
    });
  }

  async function sendSafely(to: string, mail: { subject: string; text: string; html: string }) {
    try {
      await mailer.send({ to, ...mail });
    } catch (err) {
      log.error({ err, to }, "mail could not be sent");
    }
  }

  async function sendActivation(user: { id: string; email: string; fullName: string; speak: Speak }) {
    const token = await issueToken(user.id, "activation", ACTIVATION_TTL_MS);
    await sendSafely(
      user.email,
      await mails.compose("activation", user, link(user.speak, `/activate/${token}`)),
    );
  }

  async function assertActive(user: { id: string; email: string; status: UserStatus }, method: FirstFactor) {
    if (user.status === "ACTIVE") return;
    await loginFailed(user.email, user.id, user.status === "PENDING" ? "not_activated" : "disabled", method);
    if (user.status === "PENDING")
      throw forbidden("Your account is not activated yet: check your mailbox", "ACCOUNT_NOT_ACTIVATED");
    throw forbidden("This account is disabled", "ACCOUNT_DISABLED");
  }

  /** Last login, a new session (marked with the second factor it was opened with), audit, hooks. */
  async function openSession(
    user: { id: string; email: string },
    meta: { userAgent?: string; ip?: string },
    method: FirstFactor,
    secondFactor?: string,
  ) {
    await users.update(user.id, { lastLoginAt: new Date() });
    const tokens = await sessions.start(user.id, { ...meta, secondFactor });
    // staff sign-ins are security events too: who entered the back office, from where
    const principal = await users.loadPrincipal(user.id);
    if (principal?.permissions.has(PERMISSIONS.dashboardAdmin)) {
      await audit.record({
        actor: { id: user.id, email: user.email },
        action: "auth.staff_login",
        target: { type: "user", id: user.id },
        after: secondFactor ? { method, secondFactor } : { method },
      });
    }
    for (const hook of loginHooks) {
      await hook(user.id, tokens.sessionId).catch((err: unknown) => log.warn({ err }, "a login hook failed"));
    }
    return tokens;
  }

  /**
   * What every sign-in does once the identity is proven (password or social): the status checks,
   * then either the second-factor step (second-factor-service.ts) or a new session.
   */
  async function startLogin<U extends { id: string; email: string; status: UserStatus }>(
    user: U,
    meta: { userAgent?: string; ip?: string },
    method: "password" | "social" = "social",
  ): Promise<{ user: U; tokens: IssuedTokens } | { user: U; secondFactor: SecondFactorChallenge }> {
    await assertActive(user, method);
    const challenge = await deps.secondFactor?.challengeFor(user.id, meta, method);
    if (challenge) return { user, secondFactor: challenge };
    return { user, tokens: await openSession(user, meta, method) };
  }

  /** A refused sign-in: the address typed, the account when there is one, and why. */
  async function loginFailed(email: string, userId: string | null, reason: string, method: FirstFactor) {
    await audit.record({
      actor: null,
      actorEmail: email,
      action: "auth.login_failed",
      target: { type: "user", id: userId },
      after: { reason, method },
    });
  }

  return {
    /** Registers work to do after each successful login; a failing hook is logged, never fails the login. */
    onLogin(hook: LoginHook) {
      loginHooks.push(hook);
    },

    /**
     * Self-registration always creates a CUSTOMER; without SMTP the account is active at once.
     * Refused (403) while the settings close registrations.
     */
    async register(input: SelfRegisterBody & { speak: Speak }) {
      if (!(await settings.registrationsOpen())) {
        throw forbidden("Registrations are closed", "REGISTRATIONS_CLOSED");
      }
      const needsActivation = mailer.kind === "smtp";
      // hash before opening the transaction: PGlite has one connection, keep it free
      const passwordHash = await hashPassword(input.password);
      const user = await db.transaction(async (tx) =>
        users.createUser(
          {
            email: input.email,
            passwordHash,
            fullName: input.full_name,
            speak: input.speak,
            status: needsActivation ? "PENDING" : "ACTIVE",
            role: "CUSTOMER",
            courseId: input.course_id ?? null,
          },
          tx,
        ),
      );
      if (needsActivation) {
        await sendActivation(user);
      } else {
        log.info(
          { email: user.email },
          "no SMTP_URL: self-registered account activated at once (welcome mail written to the outbox)",
        );
        await sendSafely(user.email, await mails.compose("welcome", user, link(user.speak, "/dashboard")));
      }
      return user;
    },

    /** Answers at once, whether the address waits for activation or not: the link is sent in the background. */
    resendActivation(email: string): void {
      inBackground("activation resend", async () => {
        const user = await users.findByEmail(email);
        if (user && user.status === "PENDING") await sendActivation(user);
      });
    },

    async activate(token: string) {
      const row = await consumeToken(token, "activation");
      if (!row)
        throw badRequest("This activation link is invalid or has expired", { token: ["invalid or expired"] });
      const user = await users.findById(row.userId);
      if (!user) throw badRequest("This activation link is invalid or has expired");
      if (user.status === "PENDING")
        return users.update(user.id, { status: "ACTIVE", activatedAt: new Date() });
      return user;
    },

    /** One generic error for a wrong email or password: no hint whether the account exists. */
    async authenticate(username: string, password: string, meta: { userAgent?: string; ip?: string }) {
      const email = normalizeEmail(username);
      // counted per account before anything is checked: 429 while it must wait or is locked
      const attempt = await attempts.begin(passwordSubject(email));
      const user = await users.findByEmail(email);
      if (!user) {
        await burnPasswordCheck(password);
        await loginFailed(email, null, "unknown_email", "password");
        throw unauthenticated("Invalid email or password", "INVALID_CREDENTIALS");
      }
      if (!(await verifyPassword(user.passwordHash, password))) {
        await loginFailed(
          email,
          user.id,
          attempts.lockedBy(attempt) ? "locked" : "wrong_password",
          "password",
        );
        if (attempts.lockedBy(attempt) && user.status !== "DISABLED") await mailUnlockLink(user);
        throw unauthenticated("Invalid email or password", "INVALID_CREDENTIALS");
      }
      await attempts.clear(passwordSubject(email));
      return startLogin(user, meta, "password");
    },

    /** Lifts the lock of the account a mailed link names (once, within 24 h). */
    async unlock(token: string) {
      const row = await consumeToken(token, "account_unlock");
      const user = row && (await users.findById(row.userId));
      if (!user)
        throw badRequest("This unlock link is invalid or has expired", { token: ["invalid or expired"] });
      await attempts.clear(passwordSubject(user.email));
      return { email: user.email };
    },

    startLogin,

    /** The sign-in after its second factor: the account is checked again (it may have changed meanwhile). */
    async completeLogin(
      userId: string,
      meta: { userAgent?: string; ip?: string },
      method: FirstFactor,
      secondFactor: string,
    ) {
      const user = await users.findById(userId);
      if (!user) throw unauthenticated("This sign-in step has expired: sign in again", "CHALLENGE_INVALID");
      await assertActive(user, method);
      return openSession(user, meta, method, secondFactor);
    },

    /**
     * Answers at once, known address or not: the lookup, the link and the queued mail happen after
     * the answer, so its time says nothing about the address (docs/decisions.md, "No free oracle").
     */
    forgotPassword(email: string): void {
      inBackground("password reset request", async () => {
        const user = await users.findByEmail(email);
        if (!user || user.status === "DISABLED") return;
        const token = await issueToken(user.id, "password_reset", RESET_TTL_MS);
        const mail = await mails.compose(
          "password-reset",
          user,
          link(user.speak, `/reset-password/${token}`),
        );
        await outbox.enqueue({
          key: `password-reset:${hashToken(token)}`,
          userId: user.id,
          to: user.email,
          ...mail,
        });
      });
    },

    /** Resolves once the work started in the background (reset requests, activation resends) is done. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },

    async checkResetToken(token: string) {
      const row = await findToken(token, "password_reset");
      if (!row) return { valid: false };
      const user = await users.findById(row.userId);
      return { valid: Boolean(user), email: user?.email };
    },

    /** Sets a new password from a reset link; every session of the user ends. */
    async resetPassword(token: string, password: string) {
      const passwordHash = await hashPassword(password);
      const row = await consumeToken(token, "password_reset");
      if (!row)
        throw badRequest("This reset link is invalid or has expired", { token: ["invalid or expired"] });
      const email = await db.transaction(async (tx) => {
        const user = await users.findById(row.userId, tx);
        if (!user) throw badRequest("This reset link is invalid or has expired");
        // a reset proves ownership of the mailbox: it activates a pending account too
        await users.update(
          user.id,
          {
            passwordHash,
            ...(user.status === "PENDING" ? { status: "ACTIVE" as const, activatedAt: new Date() } : {}),
          },
          tx,
        );
        await sessions.revokeAllForUser(user.id, "password_reset", undefined, tx);
        return user.email;
      });
      // the mailbox's owner chose a new password: wrong guesses at the old one no longer count
      await attempts.clear(passwordSubject(email));
      deps.changes?.publish(`user:${row.userId}`);
      await mailPasswordChanged(row.userId);
    },

    async changePassword(userId: string, sessionId: string, current: string, next: string) {
      const user = await users.findById(userId);
      if (!user) throw unauthenticated();
      if (!(await verifyPassword(user.passwordHash, current))) {
        throw new AppError(422, "WRONG_PASSWORD", "The current password is wrong", {
          currentPassword: ["The current password is wrong"],
        });
      }
      if (current === next)
        throw validationFailed({ newPassword: ["Choose a password different from the current one"] });
      await users.update(userId, { passwordHash: await hashPassword(next) });
      await sessions.revokeAllForUser(userId, "password_changed", sessionId);
      await mailPasswordChanged(userId);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
