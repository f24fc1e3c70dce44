import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOAuthProviders, startFakeOAuthProviders } from "../../../test/fakes/oauth-providers";
import { ADMIN, buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { MAX_FAILED_CODES } from "./second-factor-service";

let t: TestContext;
let fake: FakeOAuthProviders;
beforeAll(async () => {
  fake = await startFakeOAuthProviders();
  t = await buildTestApp({ env: fake.env(["google"]) });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** The code an authenticator app shows for this secret, `steps` periods of 30 s from now. */
function codeOf(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
}
const cookieOf = (res: { cookies: { name: string; value: string }[] }, name: string) =>
  res.cookies.find((c) => c.name === name)?.value;

const signIn = (username: string, password = PASSWORD) =>
  t.request({ method: "POST", url: "/api/v1/user/authenticate", payload: { username, password } });
const verify = (ticket: string, method: "totp" | "recovery", code: string) =>
  t.request({ method: "POST", url: "/api/v1/auth/second-factor/verify", payload: { ticket, method, code } });
const refresh = (cookie: string) =>
  t.request({ method: "POST", url: "/api/v1/auth/refresh", cookies: { "auth.refresh": cookie } });

/** A learner who turned the app on in the profile: its secret, recovery codes and session. */
async function learnerWithApp() {
  const user = await t.createUser();
  const setup = await t.request({
    method: "POST",
    url: "/api/v1/user/me/two-factor/totp/setup",
    token: user.token,
  });
  expect(setup.statusCode).toBe(200);
  const { secret, otpauthUrl, qrCode } = setup.json().data;
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Parlons:.+\?.*secret=/);
  expect(qrCode).toMatch(/^data:image\/png;base64,/);
  const enable = await t.request({
    method: "POST",
    url: "/api/v1/user/me/two-factor/totp/enable",
    token: user.token,
    payload: { code: codeOf(secret) },
  });
  expect(enable.statusCode).toBe(200);
  const recoveryCodes: string[] = enable.json().data.recoveryCodes;
  return { ...user, secret, recoveryCodes };
}

describe("authenticator app (TOTP)", () => {
  it("is set up in the profile with a code of the app; a wrong code leaves it off", async () => {
    const user = await t.createUser();
    const status = () => t.request({ method: "GET", url: "/api/v1/user/me/two-factor", token: user.token });
    expect((await status()).json().data).toEqual({
      totp: { enabled: false, enabledAt: null },
      recoveryCodesLeft: 0,
      passkeys: 0,
      required: false,
    });
    const { secret } = (
      await t.request({ method: "POST", url: "/api/v1/user/me/two-factor/totp/setup", token: user.token })
    ).json().data;
    const wrong = await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/enable",
      token: user.token,
      payload: { code: codeOf(secret, 4) },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      code: "SECOND_FACTOR_INVALID",
      errors: { code: expect.any(Array) },
    });
    expect((await status()).json().data.totp.enabled).toBe(false);
    const malformed = await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/enable",
      token: user.token,
      payload: { code: "12ab" },
    });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().code).toBe("VALIDATION_FAILED");

    const right = await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/enable",
      token: user.token,
      payload: { code: codeOf(secret) },
    });
    expect(right.statusCode).toBe(200);
    const codes: string[] = right.json().data.recoveryCodes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
    expect(new Set(codes).size).toBe(10);
    const after = (await status()).json().data;
    expect(after).toMatchObject({ totp: { enabled: true }, recoveryCodesLeft: 10, required: false });
    // stored hashed: no code appears as it is in the database
    const rows = await t.database.db.execute(
      `select code_hash from recovery_codes where user_id = '${user.id}'` as never,
    );
    const hashes = JSON.stringify(rows);
    for (const code of codes) expect(hashes).not.toContain(code.replaceAll("-", ""));
  });

  it("a sign-in then answers the second-factor step, not tokens; a code computed here finishes it, once", async () => {
    const user = await learnerWithApp();
    const first = await signIn(user.email);
    expect(first.statusCode).toBe(200);
    const { secondFactor } = first.json().data;
    expect(first.json().data.accessToken).toBeUndefined();
    expect(cookieOf(first, "auth.refresh")).toBeUndefined();
    expect(secondFactor).toMatchObject({ methods: ["totp", "recovery"], setup: false, expiresIn: 300 });

    const code = codeOf(user.secret, 1); // the next step: the setup's code is spent
    const done = await verify(secondFactor.ticket, "totp", code);
    expect(done.statusCode).toBe(200);
    const token = done.json().data.accessToken;
    expect((await t.request({ method: "GET", url: "/api/v1/user/me", token })).statusCode).toBe(200);
    const cookie = cookieOf(done, "auth.refresh");
    expect(cookie).toBeTruthy();
    // the session was opened with its second factor: refresh keeps it going
    expect((await refresh(cookie as string)).statusCode).toBe(200);

    // the ticket is spent; the same code again (a new ticket) is a replay
    expect((await verify(secondFactor.ticket, "totp", codeOf(user.secret, 1))).json().code).toBe(
      "CHALLENGE_INVALID",
    );
    const again = (await signIn(user.email)).json().data.secondFactor.ticket;
    const replay = await verify(again, "totp", code);
    expect(replay.statusCode).toBe(422);
    expect(replay.json().code).toBe("SECOND_FACTOR_INVALID");
  });

  it("a recovery code works once, typed with or without dashes and capitals", async () => {
    const user = await learnerWithApp();
    const [code] = user.recoveryCodes as [string];
    const ticket1 = (await signIn(user.email)).json().data.secondFactor.ticket;
    const used = await verify(ticket1, "recovery", ` ${code.toUpperCase().replaceAll("-", " ")} `);
    expect(used.statusCode).toBe(200);
    const ticket2 = (await signIn(user.email)).json().data.secondFactor.ticket;
    const twice = await verify(ticket2, "recovery", code);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().code).toBe("SECOND_FACTOR_INVALID");
    const status = await t.request({ method: "GET", url: "/api/v1/user/me/two-factor", token: user.token });
    expect(status.json().data.recoveryCodesLeft).toBe(9);
  });

  it(`locks code entry for the account after ${MAX_FAILED_CODES} wrong codes, whatever the ticket`, async () => {
    const user = await learnerWithApp();
    for (let i = 0; i < MAX_FAILED_CODES - 1; i += 1) {
      // a new ticket each time: the count belongs to the account, not to one sign-in
      const ticket = (await signIn(user.email)).json().data.secondFactor.ticket;
      expect((await verify(ticket, "totp", "000000")).statusCode).toBe(422);
    }
    const ticket = (await signIn(user.email)).json().data.secondFactor.ticket;
    const last = await verify(ticket, "recovery", "aaaa-bbbb-cccc");
    expect(last.statusCode).toBe(429);
    expect(last.json().code).toBe("SECOND_FACTOR_LOCKED");
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(800);
    // locked: even a right code is refused, and the ticket is not spent by it
    const right = await verify(ticket, "totp", codeOf(user.secret, 1));
    expect(right.statusCode).toBe(429);
    const recovery = await verify(ticket, "recovery", user.recoveryCodes[0] as string);
    expect(recovery.statusCode).toBe(429);
  });

  it("an unknown or expired ticket is 401 CHALLENGE_INVALID; bad bodies are 422", async () => {
    const res = await verify("x".repeat(43), "totp", "123456");
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("CHALLENGE_INVALID");
    const bad = await t.request({
      method: "POST",
      url: "/api/v1/auth/second-factor/verify",
      payload: { ticket: "x".repeat(43), method: "sms", code: "1" },
    });
    expect(bad.statusCode).toBe(422);
  });

  it("turning the app on ends, at their next refresh, the sessions opened without it", async () => {
    const user = await t.createUser();
    const other = await signIn(user.email);
    const otherCookie = cookieOf(other, "auth.refresh") as string;
    const { secret } = (
      await t.request({ method: "POST", url: "/api/v1/user/me/two-factor/totp/setup", token: user.token })
    ).json().data;
    await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/enable",
      token: user.token,
      payload: { code: codeOf(secret) },
    });
    const refused = await refresh(otherCookie);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe("SECOND_FACTOR_REQUIRED");
    // and stays ended
    expect(
      (await t.request({ method: "GET", url: "/api/v1/user/me", token: other.json().data.accessToken }))
        .statusCode,
    ).toBe(401);
  });

  it("is turned off with a code; sign-in then gives tokens at once", async () => {
    const user = await learnerWithApp();
    const wrong = await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/disable",
      token: user.token,
      payload: { code: "999999" },
    });
    expect(wrong.statusCode).toBe(422);
    const off = await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/disable",
      token: user.token,
      payload: { code: user.recoveryCodes[1] },
    });
    expect(off.statusCode).toBe(200);
    const res = await signIn(user.email);
    expect(res.json().data.accessToken).toEqual(expect.any(String));
  });

  it("renews the recovery codes: the old ones stop working", async () => {
    const user = await learnerWithApp();
    const res = await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/recovery-codes",
      token: user.token,
      payload: { code: codeOf(user.secret, 1) },
    });
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    const ticket = (await signIn(user.email)).json().data.secondFactor.ticket;
    expect((await verify(ticket, "recovery", user.recoveryCodes[0] as string)).statusCode).toBe(422);
    expect((await verify(ticket, "recovery", fresh[0] as string)).statusCode).toBe(200);
  });

  it("social sign-in asks for the second factor too", async () => {
    const profile = { id: "tf-1", name: "Two Factor", email: `social-tf-${Date.now()}@example.com` };
    const social = (token: string) =>
      t.request({
        method: "POST",
        url: `/api/v1/auth/social-login/google?token=${encodeURIComponent(token)}`,
      });
    const first = await social(fake.mintToken("google", profile));
    expect(first.statusCode).toBe(200);
    const token = first.json().data.accessToken;
    const { secret } = (
      await t.request({ method: "POST", url: "/api/v1/user/me/two-factor/totp/setup", token })
    ).json().data;
    await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/enable",
      token,
      payload: { code: codeOf(secret) },
    });
    const second = await social(fake.mintToken("google", profile));
    expect(second.statusCode).toBe(200);
    expect(second.json().access_token).toBeUndefined();
    expect(cookieOf(second, "auth.refresh")).toBeUndefined();
    const { ticket } = second.json().data.secondFactor;
    const done = await verify(ticket, "totp", codeOf(secret, 1));
    expect(done.statusCode).toBe(200);
  });
});

describe("staff requirement (settings)", () => {
  it("staff without a second factor set one up at sign-in; their old sessions end; learners are not asked", async () => {
    const adminSession = await signIn(ADMIN.email, ADMIN.password);
    const adminToken = adminSession.json().data.accessToken;
    const adminCookie = cookieOf(adminSession, "auth.refresh") as string;
    const learner = await t.createUser();
    const on = await t.request({
      method: "POST",
      url: "/api/v1/settings",
      token: adminToken,
      payload: { staff_two_factor_required: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().data.setting.staff_two_factor_required).toBe(true);
    try {
      expect((await signIn(learner.email)).json().data.accessToken).toEqual(expect.any(String));
      const refused = await refresh(adminCookie);
      expect(refused.json().code).toBe("SECOND_FACTOR_REQUIRED");

      const res = await signIn(ADMIN.email, ADMIN.password);
      const challenge = res.json().data.secondFactor;
      expect(challenge).toMatchObject({ methods: [], setup: true });
      // nothing to verify yet: a code is refused, the setup steps open
      expect((await verify(challenge.ticket, "totp", "123456")).statusCode).toBe(422);
      const setup = await t.request({
        method: "POST",
        url: "/api/v1/auth/second-factor/setup",
        payload: { ticket: challenge.ticket },
      });
      expect(setup.statusCode).toBe(200);
      const { secret } = setup.json().data;
      const done = await t.request({
        method: "POST",
        url: "/api/v1/auth/second-factor/setup/confirm",
        payload: { ticket: challenge.ticket, code: codeOf(secret) },
      });
      expect(done.statusCode).toBe(200);
      expect(done.json().data.recoveryCodes).toHaveLength(10);
      const token = done.json().data.accessToken;
      const status = await t.request({ method: "GET", url: "/api/v1/user/me/two-factor", token });
      expect(status.json().data).toMatchObject({ totp: { enabled: true }, required: true });
      // the ticket opened one session; the setup route is closed once an app is on
      const reuse = await t.request({
        method: "POST",
        url: "/api/v1/auth/second-factor/setup",
        payload: { ticket: challenge.ticket },
      });
      expect(reuse.statusCode).toBe(401);
      const off = await t.request({
        method: "POST",
        url: "/api/v1/user/me/two-factor/totp/disable",
        token,
        payload: { code: done.json().data.recoveryCodes[0] },
      });
      expect(off.statusCode).toBe(403);
      expect(off.json().code).toBe("SECOND_FACTOR_REQUIRED");
    } finally {
      const { settings, users } = t.app.deps.services;
      const actor = await users.loadPrincipal(learner.id);
      if (actor) await settings.update(actor, { staff_two_factor_required: false });
    }
  });
});
