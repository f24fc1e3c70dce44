import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { outboxWorkerOf } from "../../../test/helpers/mail-workers";
import { mailOutbox } from "../../db/schema/mail";

// What tells a visitor whether an address has an account: a budget per client, and no timing.
let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ env: { RATE_LIMIT_LOOKUP_MAX: "4" } });
});
afterAll(async () => {
  await t?.close();
});

let address = 0;
const client = () => {
  address += 1;
  return `172.16.${Math.floor(address / 250)}.${(address % 250) + 1}`;
};
const lookup = (kind: "email" | "username", value: string, remoteAddress: string) =>
  t.request({
    method: "POST",
    url: `/api/v1/validations/${kind}-exists?${kind}=${encodeURIComponent(value)}`,
    remoteAddress,
  });
const register = (email: string, remoteAddress: string) =>
  t.request({
    method: "POST",
    url: "/api/v1/user/self-register",
    remoteAddress,
    payload: { email, password: "secret-pw!" },
  });

describe("email-exists and username-exists", () => {
  it("answer a client its budget of lookups, the two routes together, then 429 with Retry-After", async () => {
    const me = client();
    const user = await t.createUser();
    const answers = [
      await lookup("email", user.email, me),
      await lookup("username", user.email, me),
      await lookup("email", "nobody@example.com", me),
      await lookup("username", "nobody@example.com", me),
    ];
    expect(answers.map((r) => r.json().data.exists)).toEqual([true, true, false, false]);
    const over = await lookup("email", user.email, me);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(3000);
    expect((await lookup("username", "x@example.com", me)).statusCode).toBe(429);
    // another client keeps its own budget
    expect((await lookup("email", user.email, client())).json().data.exists).toBe(true);
  });

  it("count an IPv6 client by its /64", async () => {
    const answers = [];
    for (let i = 1; i <= 5; i++)
      answers.push((await lookup("email", "a@example.com", `2001:db8:1:2::${i}`)).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 429]);
    expect((await lookup("email", "a@example.com", "2001:db8:1:3::1")).statusCode).toBe(200);
  });
});

describe("sign-up's refusal of a taken address", () => {
  it("spends the same budget; once spent, sign-up answers 429 whatever the address", async () => {
    const me = client();
    const user = await t.createUser();
    for (let i = 0; i < 4; i++) {
      const taken = await register(user.email, me);
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe("EMAIL_TAKEN");
    }
    const taken = await register(user.email, me);
    expect(taken.statusCode).toBe(429);
    const fresh = await register(`fresh-${Date.now()}@example.com`, me);
    expect(fresh.statusCode).toBe(429);
    // an address that is free does not spend it
    const other = client();
    for (let i = 0; i < 5; i++)
      expect((await register(`new-${i}-${Date.now()}@example.com`, other)).statusCode).toBe(201);
    expect((await lookup("email", user.email, other)).statusCode).toBe(200);
  });
});

describe("forgot-password", () => {
  it("answers before looking the address up, known or not; the mail is queued, not sent, and only for a known one", async () => {
    const user = await t.createUser({ speak: "EN" });
    const users = t.app.deps.services.users;
    const findByEmail = users.findByEmail;
    let lookups = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // the lookup hangs until the answers are in: an answer that waited for it would never come
    users.findByEmail = async (...args) => {
      lookups += 1;
      await held;
      return findByEmail(...args);
    };
    const ask = (email: string) =>
      t.request({ method: "POST", url: `/api/v1/auth/forgot-password?email=${encodeURIComponent(email)}` });
    try {
      const known = await ask(user.email);
      const unknown = await ask("ghost-reset@example.com");
      expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
      expect(known.body).toBe(unknown.body);
    } finally {
      release();
      await t.app.deps.services.auth.settled();
      users.findByEmail = findByEmail;
    }
    // both looked the address up, after their answer
    expect(lookups).toBe(2);
    const queued = async (email: string) =>
      (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.email, email))).map(
        (m) => m.subject,
      );
    expect(await queued(user.email)).toEqual(["Reset your Parlons password"]);
    expect(await queued("ghost-reset@example.com")).toEqual([]);
    expect(t.mailbox.last(user.email)?.subject).not.toBe("Reset your Parlons password");
    await outboxWorkerOf(t).runOnce();
    expect(t.mailbox.last(user.email)?.subject).toBe("Reset your Parlons password");
  });

  it("resend-activation answers the same way: before the lookup", async () => {
    const users = t.app.deps.services.users;
    const findByEmail = users.findByEmail;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    users.findByEmail = async (...args) => {
      await held;
      return findByEmail(...args);
    };
    try {
      const res = await t.request({
        method: "POST",
        url: "/api/v1/user/resend-activation",
        payload: { email: "pending-or-not@example.com" },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      release();
      await t.app.deps.services.auth.settled();
      users.findByEmail = findByEmail;
    }
  });
});
