import { sql } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { outboxWorkerOf } from "../../../test/helpers/mail-workers";
import { TEST_REDIS_URL } from "../../../test/helpers/redis";
import { redisMissing, runsWith } from "../../../test/helpers/services";
import { type AttemptStore, databaseAttemptStore, delayAfter, redisAttemptStore, THROTTLE } from "./throttle";

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

let address = 0;
/** A client address no other attempt used. */
const nextAddress = () => {
  address += 1;
  return `10.${Math.floor(address / 250) % 250}.${address % 250}.${1 + (address % 200)}`;
};
const signIn = (ctx: TestContext, username: string, password: string, remoteAddress = nextAddress()) =>
  ctx.request({
    method: "POST",
    url: "/api/v1/user/authenticate",
    remoteAddress,
    payload: { username, password },
  });
/**
 * Skips the wait the throttle asks for (the schedule itself is tested with a clock below): a second
 * in the past, as `now()` has microseconds and the app's clock milliseconds, so an attempt made
 * within the same millisecond would still find `now()` ahead of it.
 */
const skipWait = (ctx: TestContext) =>
  ctx.database.db.execute(sql`update auth_attempts set next_at = now() - interval '1 second'`);
const codes = (responses: { statusCode: number; json(): { code: string } }[]) =>
  responses.map((r) => (r.statusCode === 200 ? "OK" : r.json().code));

describe("password guesses are counted per account, whatever the address", () => {
  it("20 parallel guesses from 20 addresses: the free ones are checked, the others wait; a right password then clears the count", async () => {
    const guesses = await Promise.all(
      Array.from({ length: 20 }, () => signIn(t, ADMIN.email, "wrong-password!")),
    );
    const checked = guesses.filter((r) => r.statusCode === 401).length;
    // the 5th attempt asks for a 1 s wait: a very slow machine may let one more through after it
    expect(checked).toBeGreaterThanOrEqual(THROTTLE.free);
    expect(checked).toBeLessThanOrEqual(THROTTLE.free + 1);
    const refused = guesses.filter((r) => r.statusCode === 429);
    expect(refused.length).toBe(20 - checked);
    for (const r of refused) {
      expect(r.json().code).toBe("ACCOUNT_THROTTLED");
      expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    // the owner, from an address of their own, waits too (the account is what is guessed at);
    // the wait is made longer than this slow machine may take to get there
    await t.database.db.execute(sql`update auth_attempts set next_at = now() + interval '1 minute'`);
    expect(codes([await signIn(t, ADMIN.email, ADMIN.password)])).toEqual(["ACCOUNT_THROTTLED"]);
    await skipWait(t);
    expect(codes([await signIn(t, ADMIN.email, ADMIN.password)])).toEqual(["OK"]);
    // a success starts the count again: the next guesses are free
    const after = [];
    for (let i = 0; i < THROTTLE.free - 1; i++) after.push(await signIn(t, ADMIN.email, "wrong-again!"));
    expect(codes(after)).toEqual(Array(THROTTLE.free - 1).fill("INVALID_CREDENTIALS"));
    await skipWait(t);
    await signIn(t, ADMIN.email, ADMIN.password);
  });

  it("an unknown address is throttled and locked exactly like an account, and nobody is mailed", async () => {
    // what earlier sign-ins queued (the admin's new-device alerts) goes out first
    await t.app.deps.services.newDevice.settled();
    await outboxWorkerOf(t).runOnce();
    const before = t.mailbox.messages.length;
    const answers = [];
    for (let i = 0; i < THROTTLE.lockAfter; i++) {
      answers.push(await signIn(t, "ghost@example.com", "guess-guess!"));
      if (i < THROTTLE.lockAfter - 1) await skipWait(t);
    }
    expect(codes(answers)).toEqual(Array(THROTTLE.lockAfter).fill("INVALID_CREDENTIALS"));
    const locked = await signIn(t, "ghost@example.com", "guess-guess!");
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe("ACCOUNT_LOCKED");
    await outboxWorkerOf(t).runOnce();
    expect(t.mailbox.messages.length).toBe(before);
  });

  it("the lock mails the owner an unlock link (in their language); the link unlocks once", async () => {
    const user = await t.createUser({ speak: "EN" });
    for (let i = 0; i < THROTTLE.lockAfter; i++) {
      expect((await signIn(t, user.email, "not-the-password!")).statusCode).toBe(401);
      if (i < THROTTLE.lockAfter - 1) await skipWait(t);
    }
    // locked: even the right password is not checked
    const locked = await signIn(t, user.email, PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: "ACCOUNT_LOCKED" });
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(3500);

    // the mail is queued, and sent by the outbox worker
    expect(t.mailbox.last(user.email)?.subject).not.toBe("Your Parlons account is locked");
    expect((await outboxWorkerOf(t).runOnce()).sent).toBeGreaterThanOrEqual(1);
    const mail = t.mailbox.last(user.email);
    expect(mail?.subject).toBe("Your Parlons account is locked");
    const token = t.mailbox.linkIn(mail, /parlons\.test\/en\/unlock\/([\w-]+)/);

    const unlock = (body: object) => t.request({ method: "POST", url: "/api/v1/auth/unlock", payload: body });
    const done = await unlock({ token });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toEqual({ email: user.email });
    expect((await signIn(t, user.email, PASSWORD)).statusCode).toBe(200);
    const again = await unlock({ token });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.token).toBeDefined();
    expect((await unlock({ token: "x".repeat(40) })).statusCode).toBe(400);
    expect((await unlock({})).statusCode).toBe(422);
  });

  it("a password reset lifts the lock", async () => {
    const user = await t.createUser();
    for (let i = 0; i < THROTTLE.lockAfter; i++) {
      await signIn(t, user.email, "not-the-password!");
      await skipWait(t);
    }
    await t.database.db.execute(sql`update auth_attempts set next_at = now() + interval '1 hour'`);
    expect((await signIn(t, user.email, PASSWORD)).json().code).toBe("ACCOUNT_LOCKED");
    await t.request({
      method: "POST",
      url: `/api/v1/auth/forgot-password?email=${encodeURIComponent(user.email)}`,
    });
    await t.app.deps.services.auth.settled();
    await outboxWorkerOf(t).runOnce();
    const token = t.mailbox.linkIn(t.mailbox.last(user.email), /\/reset-password\/([\w-]+)/);
    const reset = await t.request({
      method: "POST",
      url: "/api/v1/auth/reset-forgot-password",
      payload: { token, password: "a-new-password!" },
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(t, user.email, "a-new-password!")).statusCode).toBe(200);
  });
});

describe("the address's own limit is kept per account", () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await buildTestApp({ env: { RATE_LIMIT_AUTH_MAX: "3" }, reset: false });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("an attacker's guesses at other accounts from a shared address do not refuse a right password", async () => {
    const shared = nextAddress();
    const victim = await t.createUser();
    const guesses = [];
    for (const target of [
      "a@example.com",
      "b@example.com",
      "a@example.com",
      "a@example.com",
      "a@example.com",
    ])
      guesses.push(await signIn(limited, target, "wrong-password!", shared));
    expect(guesses.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 429]);
    expect(guesses[4]?.json().code).toBe("RATE_LIMITED");
    expect((await signIn(limited, victim.email, PASSWORD, shared)).statusCode).toBe(200);
  });
});

describe("two API instances count one account's guesses together", () => {
  let other: TestContext;
  beforeAll(async () => {
    other = await buildTestApp({ reset: false });
  });
  afterAll(async () => {
    await other?.close();
  });

  it("guesses alternating between the instances wait their turn", async () => {
    const user = await t.createUser();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(i % 2 ? t : other, user.email, "wrong-password!")),
    );
    const checked = answers.filter((r) => r.statusCode === 401).length;
    expect(checked).toBeGreaterThanOrEqual(THROTTLE.free);
    expect(checked).toBeLessThanOrEqual(THROTTLE.free + 1);
  });
});

/** The schedule, on each store, with a clock of the test's own. */
function scheduleTest(name: string, open: () => Promise<{ store: AttemptStore; close(): Promise<void> }>) {
  it(`${name}: free attempts, then 1, 2, 4, 8, 16 s, then a lock of an hour; forgotten after a day`, async () => {
    const { store, close } = await open();
    try {
      const key = `test-${Math.random()}`;
      let now = Date.UTC(2026, 0, 1);
      const waits: number[] = [];
      for (let n = 1; n <= THROTTLE.lockAfter + 1; n++) {
        const taken = await store.take(key, now);
        expect(taken, `attempt ${n}`).toMatchObject({ allowed: true, failures: n });
        if (delayAfter(n) > 0) {
          const refused = await store.take(key, now + 1);
          expect(refused, `right after attempt ${n}`).toMatchObject({ allowed: false, failures: n });
          waits.push(refused.retryAfterMs + 1);
        } else waits.push(0);
        now += delayAfter(n);
      }
      expect(waits).toEqual([0, 0, 0, 0, 1000, 2000, 4000, 8000, 16_000, 3600_000, 3600_000]);
      // a day without attempts: the count starts again
      now += THROTTLE.forgetMs;
      expect(await store.take(key, now)).toMatchObject({ allowed: true, failures: 1 });
      await store.clear(key);
      expect(await store.take(key, now)).toMatchObject({ allowed: true, failures: 1 });
      await store.clear(key);
    } finally {
      await close();
    }
  });
}

// without Redis: skipped on a developer's machine, a failure in CI (runsWith)
const redisRuns = runsWith("attempt store in Redis", await redisMissing());
describe("attempt stores", () => {
  scheduleTest("database", async () => ({
    store: databaseAttemptStore(t.database.db),
    close: async () => {},
  }));
  if (redisRuns) {
    scheduleTest("Redis", async () => {
      const client = new Redis(TEST_REDIS_URL);
      return {
        store: redisAttemptStore(client, `test-attempts:${process.pid}:`),
        close: async () => {
          client.disconnect();
        },
      };
    });
  }
});
