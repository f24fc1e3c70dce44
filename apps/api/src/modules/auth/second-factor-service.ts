import { randomBytes } from "node:crypto";
import { PERMISSIONS, type SecondFactorChallenge, type TwoFactorStatus } from "@parlons/contract";
import { and, count, eq, gt, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import type { Db, DbOrTx } from "../../db/client";
import {
  passkeyCredentials,
  recoveryCodes,
  sessions,
  signInChallenges,
  totpCredentials,
} from "../../db/schema/auth";
import { AppError, forbidden, unauthenticated } from "../../lib/errors";
import { hashToken, randomToken } from "../../lib/secret-tokens";
import type { SettingsService } from "../settings/service";
import type { UserService } from "../users/service";
import { newTotpSecret, otpauthUrl, totpStep } from "./totp";

/** How long the second step of a sign-in may wait. */
const CHALLENGE_TTL_SECONDS = 300;
/** Wrong codes in a row (any step, any address) before code entry locks for the account. */
export const MAX_FAILED_CODES = 5;
const LOCK_MS = 15 * 60_000;
const RECOVERY_CODE_COUNT = 10;
// 12 characters from 32 (60 bits): hashed with SHA-256 they resist an offline search
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz023456789";

type FirstFactor = "password" | "social";
type SecondFactor = "totp" | "recovery" | "passkey";
interface Meta {
  userAgent?: string;
  ip?: string;
}

function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  return Array.from(bytes, (b) => RECOVERY_ALPHABET[b % 32]).join("");
}
/** `abcdefghjkmn` → `abcd-efgh-jkmn`, as shown and printed. */
const printed = (code: string) => code.match(/.{4}/g)?.join("-") ?? code;

const invalidCode = () =>
  new AppError(422, "SECOND_FACTOR_INVALID", "This code is not valid", { code: ["This code is not valid"] });
const challengeInvalid = () =>
  unauthenticated("This sign-in step has expired: sign in again", "CHALLENGE_INVALID");
function locked(until: Date) {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new AppError(
    429,
    "SECOND_FACTOR_LOCKED",
    `Too many wrong codes: try again in ${Math.ceil(seconds / 60)} minutes`,
    undefined,
    { "retry-after": String(seconds) },
  );
}

/**
 * Second factors: the authenticator app (TOTP) and recovery codes, the sign-in step that asks for
 * them, and whether a session may live without one (docs/decisions.md, "Two factors").
 */
export function createSecondFactorService(deps: {
  db: Db;
  users: Pick<UserService, "findById" | "loadPrincipal">;
  settings: Pick<SettingsService, "staffTwoFactorRequired">;
}) {
  const { db, users, settings } = deps;

  async function credentialOf(userId: string, tx: DbOrTx = db) {
    const [row] = await tx.select().from(totpCredentials).where(eq(totpCredentials.userId, userId));
    return row;
  }

  async function isStaff(userId: string): Promise<boolean> {
    const principal = await users.loadPrincipal(userId);
    return Boolean(principal?.permissions.has(PERMISSIONS.dashboardAdmin));
  }

  /** Staff while the setting says so: they may not sign in without a second factor. */
  async function required(userId: string): Promise<boolean> {
    return (await settings.staffTwoFactorRequired()) && (await isStaff(userId));
  }

  async function passkeyCount(userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.userId, userId));
    return row?.n ?? 0;
  }

  /** An authenticator app on, or a passkey. */
  async function hasFactor(userId: string): Promise<boolean> {
    return Boolean((await credentialOf(userId))?.enabledAt) || (await passkeyCount(userId)) > 0;
  }

  async function recoveryLeft(userId: string, tx: DbOrTx = db): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return row?.n ?? 0;
  }

  /** Replaces the user's recovery codes with new ones, returned once as printed. */
  async function newRecoveryCodes(userId: string, tx: DbOrTx): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashToken(code) })));
    return codes.map(printed);
  }

  /**
   * Checks a code of the account under a row lock (concurrent guesses count one after the other):
   * a locked account refuses any code; a wrong one counts and may lock; a right one clears the count.
   * A TOTP code is accepted once (its step is remembered).
   */
  async function checkCode(
    userId: string,
    method: "totp" | "recovery" | "pending",
    code: string,
    tx: DbOrTx,
  ): Promise<boolean> {
    const [row] = await tx
      .select()
      .from(totpCredentials)
      .where(eq(totpCredentials.userId, userId))
      .for("update");
    if (!row) return false;
    if (row.lockedUntil && row.lockedUntil.getTime() > Date.now()) throw locked(row.lockedUntil);
    let ok = false;
    let step: number | null = null;
    if (method === "recovery") {
      const used = await tx
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, hashToken(code)),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      ok = used.length > 0;
    } else {
      const secret = method === "pending" ? row.pendingSecret : row.secret;
      step = secret ? totpStep(secret, code) : null;
      ok = step !== null && (row.lastStep === null || step > row.lastStep);
    }
    if (ok) {
      await tx
        .update(totpCredentials)
        .set({ failedAttempts: 0, lockedUntil: null, ...(step !== null ? { lastStep: step } : {}) })
        .where(eq(totpCredentials.userId, userId));
      return true;
    }
    const failures = row.failedAttempts + 1;
    const lockNow = failures >= MAX_FAILED_CODES;
    await tx
      .update(totpCredentials)
      .set(
        lockNow
          ? { failedAttempts: 0, lockedUntil: new Date(Date.now() + LOCK_MS) }
          : { failedAttempts: failures },
      )
      .where(eq(totpCredentials.userId, userId));
    return false;
  }

  /** Runs `check` in a transaction; a wrong code still commits its count, then answers 422 (or 429 once locked). */
  async function withCode<T>(userId: string, run: (tx: DbOrTx) => Promise<T | null>): Promise<T> {
    const outcome = await db.transaction(async (tx) => run(tx));
    if (outcome !== null) return outcome;
    const row = await credentialOf(userId);
    if (row?.lockedUntil && row.lockedUntil.getTime() > Date.now()) throw locked(row.lockedUntil);
    throw invalidCode();
  }

  /** The live challenge of a ticket (not used, not expired), or 401 CHALLENGE_INVALID. */
  async function challengeOf(ticket: string, tx: DbOrTx = db) {
    const [row] = await tx
      .select()
      .from(signInChallenges)
      .where(
        and(
          eq(signInChallenges.ticketHash, hashToken(ticket)),
          isNull(signInChallenges.usedAt),
          gt(signInChallenges.expiresAt, new Date()),
        ),
      );
    if (!row) throw challengeInvalid();
    return row;
  }

  /** Ends a challenge; only one caller wins, so a ticket opens one session. */
  async function consume(id: string, tx: DbOrTx) {
    const used = await tx
      .update(signInChallenges)
      .set({ usedAt: new Date() })
      .where(and(eq(signInChallenges.id, id), isNull(signInChallenges.usedAt)))
      .returning({ id: signInChallenges.id });
    if (used.length === 0) throw challengeInvalid();
  }

  async function setup(userId: string) {
    const user = await users.findById(userId);
    if (!user) throw unauthenticated();
    const secret = newTotpSecret();
    await db
      .insert(totpCredentials)
      .values({ userId, pendingSecret: secret })
      .onConflictDoUpdate({
        target: totpCredentials.userId,
        set: { pendingSecret: secret, updatedAt: new Date() },
      });
    const url = otpauthUrl(secret, user.email);
    return { secret, otpauthUrl: url, qrCode: await QRCode.toDataURL(url, { margin: 1, width: 240 }) };
  }

  /** Turns the pending secret on after a right code of it; new recovery codes, returned once. */
  async function confirm(userId: string, code: string, tx: DbOrTx): Promise<string[] | null> {
    const row = await credentialOf(userId, tx);
    if (!row?.pendingSecret) throw new AppError(409, "CONFLICT", "Start the setup again: no app is waiting");
    if (!(await checkCode(userId, "pending", code, tx))) return null;
    await tx
      .update(totpCredentials)
      .set({ secret: row.pendingSecret, pendingSecret: null, enabledAt: new Date(), updatedAt: new Date() })
      .where(eq(totpCredentials.userId, userId));
    return newRecoveryCodes(userId, tx);
  }

  /** A code of the app (6 digits) or a recovery code. */
  const methodOf = (code: string): "totp" | "recovery" => (/^\d{6}$/.test(code) ? "totp" : "recovery");

  return {
    /**
     * What a sign-in whose first factor is right needs next: nothing (null), a code (the account
     * has an app), or a setup (staff while the setting requires it, without an app yet).
     */
    async challengeFor(
      userId: string,
      meta: Meta,
      method: FirstFactor,
    ): Promise<SecondFactorChallenge | null> {
      const totp = Boolean((await credentialOf(userId))?.enabledAt);
      const passkeys = (await passkeyCount(userId)) > 0;
      const enabled = totp || passkeys;
      if (!enabled && !(await required(userId))) return null;
      const ticket = randomToken();
      await db.insert(signInChallenges).values({
        userId,
        ticketHash: hashToken(ticket),
        method,
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip ?? null,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000),
      });
      const methods: SecondFactor[] = [];
      if (totp) methods.push("totp");
      if (totp && (await recoveryLeft(userId)) > 0) methods.push("recovery");
      if (passkeys) methods.push("passkey");
      return { ticket, methods, setup: !enabled, expiresIn: CHALLENGE_TTL_SECONDS };
    },

    /** The second step: a right code ends the challenge and says whose sign-in it completes. */
    async verify(ticket: string, method: "totp" | "recovery", code: string) {
      const challenge = await challengeOf(ticket);
      return withCode(challenge.userId, async (tx) => {
        if (!(await checkCode(challenge.userId, method, code, tx))) return null;
        await consume(challenge.id, tx);
        return {
          userId: challenge.userId,
          meta: metaOf(challenge),
          method: challenge.method,
          factor: method,
        };
      });
    },

    /** The account a live ticket is for (401 CHALLENGE_INVALID otherwise): a passkey answers it. */
    async ticketChallenge(ticket: string) {
      const challenge = await challengeOf(ticket);
      return {
        id: challenge.id,
        userId: challenge.userId,
        meta: metaOf(challenge),
        method: challenge.method,
      };
    },

    /**
     * The account a live ticket must set a second factor up for (none yet, while one is required):
     * a passkey registered then ends the sign-in. 401 CHALLENGE_INVALID otherwise.
     */
    async setupChallenge(ticket: string) {
      const challenge = await challengeOf(ticket);
      if (await hasFactor(challenge.userId)) throw challengeInvalid();
      return {
        id: challenge.id,
        userId: challenge.userId,
        meta: metaOf(challenge),
        method: challenge.method,
      };
    },

    /** Ends a ticket answered by a passkey (passkey-service.ts); a second use is refused. */
    consumeTicket: consume,

    /** Whether the account could go without this passkey (the last one, and no app, while required). */
    async mayRemovePasskey(userId: string): Promise<boolean> {
      if (!(await required(userId))) return true;
      return Boolean((await credentialOf(userId))?.enabledAt) || (await passkeyCount(userId)) > 1;
    },

    /** Setup during a sign-in (the account must have a factor and has none): a new secret. */
    async setupWithTicket(ticket: string) {
      const challenge = await challengeOf(ticket);
      if (await hasFactor(challenge.userId)) throw challengeInvalid();
      return setup(challenge.userId);
    },

    /** Its confirmation: the app is on, the challenge ends, the recovery codes come back once. */
    async confirmWithTicket(ticket: string, code: string) {
      const challenge = await challengeOf(ticket);
      if (await hasFactor(challenge.userId)) throw challengeInvalid();
      return withCode(challenge.userId, async (tx) => {
        const codes = await confirm(challenge.userId, code, tx);
        if (!codes) return null;
        await consume(challenge.id, tx);
        return {
          userId: challenge.userId,
          meta: metaOf(challenge),
          method: challenge.method,
          factor: "totp" as const,
          recoveryCodes: codes,
        };
      });
    },

    setup,

    /** Setup from the profile: the app is on and this session counts as opened with it. */
    async confirmSetup(userId: string, sessionId: string, code: string): Promise<string[]> {
      return withCode(userId, async (tx) => {
        const codes = await confirm(userId, code, tx);
        if (codes) await tx.update(sessions).set({ secondFactor: "totp" }).where(eq(sessions.id, sessionId));
        return codes;
      });
    },

    /** Turns the app off (a code of it or a recovery code proves the owner); refused while required without a passkey. */
    async disable(userId: string, code: string) {
      if ((await required(userId)) && (await passkeyCount(userId)) === 0)
        throw forbidden("Staff must keep a second factor on this site", "SECOND_FACTOR_REQUIRED");
      await withCode(userId, async (tx) => {
        if (!(await checkCode(userId, methodOf(code), code, tx))) return null;
        await tx.delete(totpCredentials).where(eq(totpCredentials.userId, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        return true;
      });
    },

    async regenerateRecoveryCodes(userId: string, code: string): Promise<string[]> {
      if (!(await hasFactor(userId))) throw new AppError(409, "CONFLICT", "No authenticator app is set up");
      return withCode(userId, async (tx) => {
        if (!(await checkCode(userId, methodOf(code), code, tx))) return null;
        return newRecoveryCodes(userId, tx);
      });
    },

    async status(userId: string): Promise<TwoFactorStatus> {
      const row = await credentialOf(userId);
      return {
        totp: { enabled: Boolean(row?.enabledAt), enabledAt: row?.enabledAt?.toISOString() ?? null },
        recoveryCodesLeft: row?.enabledAt ? await recoveryLeft(userId) : 0,
        passkeys: await passkeyCount(userId),
        required: await required(userId),
      };
    },

    /**
     * Whether a session may go on (refresh): one opened without a second factor ends once its
     * account needs one (an app turned on elsewhere, or staff when the setting is switched on).
     */
    async sessionAllowed(userId: string, sessionId: string): Promise<boolean> {
      const [session] = await db
        .select({ secondFactor: sessions.secondFactor })
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      if (session?.secondFactor) return true;
      return !(await hasFactor(userId)) && !(await required(userId));
    },
  };
}
export type SecondFactorService = ReturnType<typeof createSecondFactorService>;

function metaOf(challenge: { userAgent: string | null; ip: string | null }): Meta {
  return { userAgent: challenge.userAgent ?? undefined, ip: challenge.ip ?? undefined };
}
