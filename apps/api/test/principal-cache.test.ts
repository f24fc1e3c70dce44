import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChangeBus } from "../src/lib/change-bus";
import { createPrincipalCache } from "../src/modules/auth/principal-cache";
import type { Principal } from "../src/modules/users/service";
import { buildTestApp, type TestContext } from "./helpers/build";
import { outboxWorkerOf } from "./helpers/mail-workers";

// Signed-in reads resolve the caller from memory after the first request; the change bus (and
// nothing else) makes a process read the database again.

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const me = (token: string) =>
  t.request({ method: "GET", url: "/api/v1/user/me", token }).then((r) => r.statusCode);

describe("principal from memory", () => {
  it("does not read the session or the user again until a change is announced", async () => {
    const user = await t.createUser();
    expect(await me(user.token)).toBe(200);
    // behind the services' back: this process keeps answering from memory
    await t.database.db.execute(sql`update sessions set revoked_at = now() where user_id = ${user.id}`);
    expect(await me(user.token)).toBe(200);
    t.app.deps.changes.publish(`user:${user.id}`);
    const res = await t.request({ method: "GET", url: "/api/v1/user/me", token: user.token });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("SESSION_REVOKED");
  });

  it("logout and a password reset end access at once", async () => {
    const user = await t.createUser();
    expect(await me(user.token)).toBe(200);
    await t.request({ method: "GET", url: "/api/v1/auth/logout", token: user.token });
    expect(await me(user.token)).toBe(401);

    const again = await t.createUser();
    expect(await me(again.token)).toBe(200);
    const reset = await t.app.deps.services.auth.forgotPassword(again.email);
    expect(reset).toBeUndefined();
    // the reset is prepared after the answer and its mail queued in the outbox: both done, then read
    await t.app.deps.services.auth.settled();
    await outboxWorkerOf(t).runOnce();
    const mail = t.mailbox.last(again.email);
    const token = /reset-password\/([\w-]+)/.exec(mail?.text ?? "")?.[1];
    expect(token).toBeTruthy();
    const done = await t.request({
      method: "POST",
      url: "/api/v1/auth/reset-forgot-password",
      payload: { token, password: "Brand-new-pass3!" },
    });
    expect(done.statusCode).toBe(200);
    expect(await me(again.token)).toBe(401);
  });
});

describe("access level", () => {
  it("ends with the paid time, without a change announced", async () => {
    let clock = Date.now();
    const changes = await createChangeBus({
      database: t.database,
      channel: "unused",
      log: { warn: () => undefined, info: () => undefined },
    });
    const until = new Date(clock + 60_000);
    const entitlement = {
      ...t.app.deps.services.entitlement,
      accessWindow: async (_p: Principal | null, now = new Date()) =>
        now < until ? { access: "all" as const, until } : { access: "free" as const, until: null },
    };
    const { signer, sessions, users } = t.app.deps.services;
    const cache = createPrincipalCache({ signer, sessions, users, entitlement, changes, now: () => clock });
    const learner: Principal = {
      id: "00000000-0000-4000-8000-000000000001",
      email: "x@test.local",
      status: "ACTIVE",
      role: "CUSTOMER",
      roles: ["CUSTOMER"],
      permissions: new Set(),
    };
    expect(await cache.accessOf(learner)).toBe("all");
    clock += 30_000;
    expect(await cache.accessOf(learner)).toBe("all");
    clock += 31_000;
    expect(await cache.accessOf(learner)).toBe("free");
    await changes.close();
  });
});
