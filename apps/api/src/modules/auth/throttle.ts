import { createHash } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../../db/client";
import { authAttempts } from "../../db/schema/auth";
import { AppError } from "../../lib/errors";

/**
 * The attempts at a secret one account may make, whatever the addresses they come from: the
 * first ones free, then a growing wait between two, then a lock that a link mailed to the owner
 * lifts. Each attempt is counted before its secret is checked (a right one clears the count), so
 * parallel guesses from many addresses wait their turn like sequential ones; the count lives in
 * the database or in Redis, so every API process sees the same one.
 */
export const THROTTLE = {
  /** Attempts without any wait. */
  free: 5,
  /** The attempt that, wrong, locks the account (the owner is mailed then). */
  lockAfter: 10,
  /** How long a lock lasts without the link (and each wrong attempt after it renews it). */
  lockMs: 3600_000,
  /** Attempts are forgotten after this long without one. */
  forgetMs: 24 * 3600_000,
} as const;

/** The wait after the `n`-th attempt in a row: none, then 1, 2, 4, 8, 16 s, then the lock. */
export function delayAfter(n: number): number {
  if (n < THROTTLE.free) return 0;
  if (n < THROTTLE.lockAfter) return 1000 * 2 ** (n - THROTTLE.free);
  return THROTTLE.lockMs;
}
/** delayAfter(1..lockAfter); every attempt past the last waits the last. */
const SCHEDULE = Array.from({ length: THROTTLE.lockAfter }, (_, i) => delayAfter(i + 1));

type Taken = { allowed: boolean; failures: number; retryAfterMs: number };

/** Where the counts live; `take` counts an attempt if one is allowed now, atomically across processes. */
export interface AttemptStore {
  take(key: string, now: number): Promise<Taken>;
  clear(key: string): Promise<void>;
}

/** The `auth_attempts` table: one upsert that counts the attempt only when its time has come. */
export function databaseAttemptStore(db: Db): AttemptStore {
  let takes = 0;
  return {
    async take(key, now) {
      const at = new Date(now);
      const forgotten = new Date(now - THROTTLE.forgetMs);
      const schedule = sql`(ARRAY[${sql.join(
        SCHEDULE.map((ms) => sql`${ms}`),
        sql`, `,
      )}]::integer[])`;
      const next = sql`CASE WHEN ${authAttempts.lastAt} < ${forgotten} THEN 1 ELSE ${authAttempts.failures} + 1 END`;
      const rows = await db
        .insert(authAttempts)
        .values({ key, failures: 1, nextAt: new Date(now + delayAfter(1)), lastAt: at })
        .onConflictDoUpdate({
          target: authAttempts.key,
          set: {
            failures: next,
            nextAt: sql`${at}::timestamptz + ${schedule}[LEAST(${next}, ${SCHEDULE.length})] * interval '1 millisecond'`,
            lastAt: at,
          },
          setWhere: sql`${authAttempts.nextAt} <= ${at} OR ${authAttempts.lastAt} < ${forgotten}`,
        })
        .returning({ failures: authAttempts.failures });
      // rows nobody tried for a day are dead weight: sweep them now and then
      takes += 1;
      if (takes % 200 === 0) await db.delete(authAttempts).where(lt(authAttempts.lastAt, forgotten));
      const [taken] = rows;
      if (taken) return { allowed: true, failures: taken.failures, retryAfterMs: 0 };
      const [row] = await db
        .select({ failures: authAttempts.failures, nextAt: authAttempts.nextAt })
        .from(authAttempts)
        .where(sql`${authAttempts.key} = ${key}`);
      return {
        allowed: false,
        failures: row?.failures ?? 0,
        retryAfterMs: Math.max(0, (row?.nextAt.getTime() ?? now) - now),
      };
    },
    async clear(key) {
      await db.delete(authAttempts).where(sql`${authAttempts.key} = ${key}`);
    },
  };
}

/** The same count in Redis (REDIS_URL): a hash per key, counted by a script, gone after a day unused. */
export function redisAttemptStore(redis: Redis, prefix: string): AttemptStore {
  const script = `
    local failures = tonumber(redis.call('HGET', KEYS[1], 'f') or '0')
    local nextAt = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
    local lastAt = tonumber(redis.call('HGET', KEYS[1], 'l') or '0')
    local now = tonumber(ARGV[1])
    if lastAt < now - tonumber(ARGV[2]) then failures = 0; nextAt = 0 end
    if nextAt > now then return {0, failures, nextAt - now} end
    failures = failures + 1
    local delay = tonumber(ARGV[2 + math.min(failures, #ARGV - 2)])
    redis.call('HSET', KEYS[1], 'f', failures, 'n', now + delay, 'l', now)
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {1, failures, 0}`;
  return {
    async take(key, now) {
      const [allowed, failures, wait] = (await redis.eval(
        script,
        1,
        prefix + key,
        now,
        THROTTLE.forgetMs,
        ...SCHEDULE,
      )) as [number, number, number];
      return { allowed: allowed === 1, failures, retryAfterMs: wait };
    },
    async clear(key) {
      await redis.del(prefix + key);
    },
  };
}

/** One attempt let through: what `failed` and `succeeded` need. */
export interface Attempt {
  key: string;
  /** Attempts in a row, this one included. */
  failures: number;
}

/**
 * The throttle the sign-in paths share. `subject` names what is attempted on, e.g.
 * `password:<normalized email>` (the same whether the account exists or not, so the answers say
 * nothing about it) or `totp:<user id>` for a second factor.
 */
export function createAttemptGuard(deps: { store: AttemptStore; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const keyOf = (subject: string) => createHash("sha256").update(`attempts:${subject}`).digest("base64url");
  return {
    /**
     * Counts an attempt before its secret is checked; 429 when the subject must wait
     * (`ACCOUNT_THROTTLED`) or is locked (`ACCOUNT_LOCKED`), with Retry-After. The secret is then
     * not checked at all.
     */
    async begin(subject: string): Promise<Attempt> {
      const key = keyOf(subject);
      const taken = await deps.store.take(key, now());
      if (taken.allowed) return { key, failures: taken.failures };
      const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
      const headers = { "retry-after": String(seconds) };
      if (taken.failures >= THROTTLE.lockAfter) {
        throw new AppError(
          429,
          "ACCOUNT_LOCKED",
          "Too many wrong attempts: this account is locked. Its owner has been sent a link to unlock it",
          undefined,
          headers,
        );
      }
      throw new AppError(
        429,
        "ACCOUNT_THROTTLED",
        `Too many wrong attempts on this account: try again in ${seconds} s`,
        undefined,
        headers,
      );
    },
    /** After a wrong secret: true when this attempt locked the subject (tell its owner then, once). */
    lockedBy(attempt: Attempt): boolean {
      return attempt.failures === THROTTLE.lockAfter;
    },
    /** After a right secret, an unlock link or a password reset: the count starts again. */
    async clear(subject: string): Promise<void> {
      await deps.store.clear(keyOf(subject));
    },
  };
}
export type AttemptGuard = ReturnType<typeof createAttemptGuard>;
