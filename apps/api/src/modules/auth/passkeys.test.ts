import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { assertPasskey, createPasskey, type SoftPasskey } from "../../../test/helpers/webauthn";
import { ConfigError, loadConfig } from "../../config";
import { passkeyCredentials, sessions } from "../../db/schema/auth";
import { THROTTLE } from "./throttle";

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** The site as the browser sees it (PUBLIC_URL of the test app). */
const site = { origin: "http://parlons.test", rpId: "parlons.test" };
const cookieOf = (res: { cookies: { name: string; value: string }[] }, name: string) =>
  res.cookies.find((c) => c.name === name)?.value;

const post = (url: string, payload?: object, token?: string) =>
  t.request({ method: "POST", url: `/api/v1${url}`, payload, token });
const signIn = (username: string) => post("/user/authenticate", { username, password: PASSWORD });

/** A learner with one passkey registered in the profile. */
async function learnerWithPasskey(name = "Mon téléphone") {
  const user = await t.createUser();
  const options = await post("/user/me/passkeys/options", undefined, user.token);
  expect(options.statusCode, options.body).toBe(200);
  const creation = options.json().data;
  expect(creation.rp).toEqual({ id: "parlons.test", name: "Parlons" });
  expect(creation.authenticatorSelection).toMatchObject({
    residentKey: "required",
    userVerification: "required",
  });
  const { passkey, response } = createPasskey(creation, site);
  const res = await post("/user/me/passkeys", { name, response }, user.token);
  expect(res.statusCode, res.body).toBe(201);
  return { ...user, passkey, passkeyId: res.json().data.id as string };
}

async function passwordlessOptions(): Promise<string> {
  const res = await post("/auth/passkey/options");
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.userVerification).toBe("required");
  return res.json().data.challenge;
}
const passwordless = async (passkey: SoftPasskey, opts: Parameters<typeof assertPasskey>[3] = {}) =>
  post("/auth/passkey/verify", { response: assertPasskey(passkey, await passwordlessOptions(), site, opts) });

describe("passkeys in the profile", () => {
  it("registers a passkey, lists it with its dates, renames it and removes it", async () => {
    const user = await learnerWithPasskey();
    const list = await t.request({ method: "GET", url: "/api/v1/user/me/passkeys", token: user.token });
    expect(list.json().data).toEqual([
      { id: user.passkeyId, name: "Mon téléphone", createdAt: expect.any(String), lastUsedAt: null },
    ]);
    const [row] = await t.database.db
      .select()
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.id, user.passkeyId));
    expect(row?.transports).toEqual(["internal"]);
    expect(Buffer.from(row?.publicKey ?? "", "base64url")).toEqual(user.passkey.cosePublicKey);
    // the session that registered it counts as opened with a second factor
    const [session] = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session?.secondFactor).toBe("passkey");

    const url = `/api/v1/user/me/passkeys/${user.passkeyId}`;
    const renamed = await t.request({
      method: "PATCH",
      url,
      token: user.token,
      payload: { name: "Clé USB" },
    });
    expect(renamed.json().data.name).toBe("Clé USB");
    const empty = await t.request({ method: "PATCH", url, token: user.token, payload: { name: "  " } });
    expect(empty.statusCode).toBe(422);
    // another learner can neither rename nor remove it
    const other = await t.createUser();
    expect((await t.request({ method: "DELETE", url, token: other.token })).statusCode).toBe(404);
    expect((await t.request({ method: "DELETE", url, token: user.token })).statusCode).toBe(200);
    expect((await t.request({ method: "DELETE", url, token: user.token })).statusCode).toBe(404);
    // a removed passkey no longer signs in
    const gone = await passwordless(user.passkey);
    expect(gone.statusCode).toBe(401);
    expect(gone.json().code).toBe("PASSKEY_UNKNOWN");
  });

  it("refuses a registration from another origin, without user verification, or answered twice", async () => {
    const user = await t.createUser();
    const options = async () => (await post("/user/me/passkeys/options", undefined, user.token)).json().data;

    const phishing = createPasskey(await options(), {
      origin: "https://parlons.test.evil",
      rpId: "parlons.test",
    });
    const wrongOrigin = await post(
      "/user/me/passkeys",
      { name: "x", response: phishing.response },
      user.token,
    );
    expect(wrongOrigin.statusCode).toBe(422);
    expect(wrongOrigin.json().code).toBe("PASSKEY_INVALID");

    const unverified = createPasskey(await options(), site, { userVerified: false });
    const noUv = await post("/user/me/passkeys", { name: "x", response: unverified.response }, user.token);
    expect(noUv.json().code).toBe("PASSKEY_INVALID");

    const good = createPasskey(await options(), site);
    expect(
      (await post("/user/me/passkeys", { name: "a", response: good.response }, user.token)).statusCode,
    ).toBe(201);
    const again = await post("/user/me/passkeys", { name: "b", response: good.response }, user.token);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("PASSKEY_CHALLENGE_INVALID");

    // a challenge made for one account does not register a passkey on another
    const other = await t.createUser();
    const stolen = createPasskey(await options(), site);
    const cross = await post("/user/me/passkeys", { name: "c", response: stolen.response }, other.token);
    expect(cross.json().code).toBe("PASSKEY_CHALLENGE_INVALID");

    const garbage = await post("/user/me/passkeys", { name: "d", response: { id: "%%%" } }, user.token);
    expect(garbage.statusCode).toBe(422);
  });
});

describe("a passkey as the second factor", () => {
  it("is offered after a right password; the session records it and refreshes", async () => {
    const user = await learnerWithPasskey();
    const first = await signIn(user.email);
    const challenge = first.json().data.secondFactor;
    expect(challenge).toMatchObject({ methods: ["passkey"], setup: false });

    const options = await post("/auth/second-factor/passkey/options", { ticket: challenge.ticket });
    expect(options.statusCode, options.body).toBe(200);
    const request = options.json().data;
    expect(request.allowCredentials).toEqual([
      { id: user.passkey.credentialId.toString("base64url"), type: "public-key", transports: ["internal"] },
    ]);
    const response = assertPasskey(user.passkey, request.challenge, site);
    const done = await post("/auth/second-factor/passkey/verify", { ticket: challenge.ticket, response });
    expect(done.statusCode, done.body).toBe(200);
    const refreshCookie = cookieOf(done, "auth.refresh") ?? "";
    // the profile's session (it registered the passkey) and this one
    const all = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(all.map((s) => s.secondFactor)).toEqual(["passkey", "passkey"]);
    const refreshed = await t.request({
      method: "POST",
      url: "/api/v1/auth/refresh",
      cookies: { "auth.refresh": refreshCookie },
    });
    expect(refreshed.statusCode).toBe(200);

    // the ticket is spent, and so is the challenge
    const replay = await post("/auth/second-factor/passkey/verify", { ticket: challenge.ticket, response });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("CHALLENGE_INVALID");
  });

  it("refuses another account's passkey and a replayed challenge", async () => {
    const user = await learnerWithPasskey();
    const intruder = await learnerWithPasskey();
    const { ticket } = (await signIn(user.email)).json().data.secondFactor;
    const challengeOf = async () =>
      (await post("/auth/second-factor/passkey/options", { ticket })).json().data.challenge;

    const foreign = assertPasskey(intruder.passkey, await challengeOf(), site);
    const refused = await post("/auth/second-factor/passkey/verify", { ticket, response: foreign });
    expect(refused.json().code).toBe("PASSKEY_UNKNOWN");

    const c = await challengeOf();
    const wrongOrigin = assertPasskey(user.passkey, c, { origin: "http://evil.test", rpId: "parlons.test" });
    const phished = await post("/auth/second-factor/passkey/verify", { ticket, response: wrongOrigin });
    expect(phished.statusCode).toBe(401);
    expect(phished.json().code).toBe("PASSKEY_INVALID");
    // the challenge went with the refused answer: the right one cannot reuse it
    const reused = await post("/auth/second-factor/passkey/verify", {
      ticket,
      response: assertPasskey(user.passkey, c, site),
    });
    expect(reused.json().code).toBe("PASSKEY_CHALLENGE_INVALID");

    const ok = assertPasskey(user.passkey, await challengeOf(), site);
    expect((await post("/auth/second-factor/passkey/verify", { ticket, response: ok })).statusCode).toBe(200);
  });
});

describe("a passkey set up at a sign-in that requires a second factor", () => {
  it("staff without a factor register a passkey with the ticket: the sign-in ends, once", async () => {
    const { settings, users } = t.app.deps.services;
    const staff = await t.createUser({ role: "ADMIN" });
    const actor = await users.loadPrincipal(staff.id);
    if (!actor) throw new Error("no principal");
    await settings.update(actor, { staff_two_factor_required: true });
    try {
      const first = await signIn(staff.email);
      const challenge = first.json().data.secondFactor;
      expect(challenge).toMatchObject({ methods: [], setup: true });
      const options = await post("/auth/second-factor/setup/passkey/options", { ticket: challenge.ticket });
      expect(options.statusCode, options.body).toBe(200);
      const creation = options.json().data;
      expect(creation.authenticatorSelection).toMatchObject({ userVerification: "required" });
      const { passkey, response } = createPasskey(creation, site);

      // a made-up ticket, or another origin's answer, opens nothing
      const forged = await post("/auth/second-factor/setup/passkey", {
        ticket: "x".repeat(43),
        name: "Clé",
        response,
      });
      expect(forged.json().code).toBe("CHALLENGE_INVALID");
      const done = await post("/auth/second-factor/setup/passkey", {
        ticket: challenge.ticket,
        name: "Clé du bureau",
        response,
      });
      expect(done.statusCode, done.body).toBe(200);
      const token = done.json().data.accessToken as string;
      expect(cookieOf(done, "auth.refresh")).toEqual(expect.any(String));
      const status = await t.request({ method: "GET", url: "/api/v1/user/me/two-factor", token });
      expect(status.json().data).toMatchObject({ totp: { enabled: false }, passkeys: 1, required: true });
      const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, staff.id));
      expect(rows.filter((s) => s.secondFactor === "passkey")).toHaveLength(1);

      // the ticket opened one session; its setup is closed now that the account has a factor
      const again = await post("/auth/second-factor/setup/passkey/options", { ticket: challenge.ticket });
      expect(again.statusCode).toBe(401);
      // the next sign-in asks for the passkey, which answers it
      const next = (await signIn(staff.email)).json().data.secondFactor;
      expect(next).toMatchObject({ methods: ["passkey"], setup: false });
      const closed = await post("/auth/second-factor/setup/passkey/options", { ticket: next.ticket });
      expect(closed.json().code).toBe("CHALLENGE_INVALID");
      const ask = await post("/auth/second-factor/passkey/options", { ticket: next.ticket });
      const answer = assertPasskey(passkey, ask.json().data.challenge, site);
      const second = await post("/auth/second-factor/passkey/verify", {
        ticket: next.ticket,
        response: answer,
      });
      expect(second.statusCode, second.body).toBe(200);
    } finally {
      await settings.update(actor, { staff_two_factor_required: false });
    }
  });

  it("is refused to a learner's ticket (they are not asked) and to an account that has a factor", async () => {
    const user = await learnerWithPasskey();
    const { ticket } = (await signIn(user.email)).json().data.secondFactor;
    const res = await post("/auth/second-factor/setup/passkey/options", { ticket });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("CHALLENGE_INVALID");
  });
});

describe("signing in with a passkey alone", () => {
  it("opens a session with both factors and records the last use", async () => {
    const user = await learnerWithPasskey();
    const res = await passwordless(user.passkey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.accessToken).toEqual(expect.any(String));
    const me = await t.request({ method: "GET", url: "/api/v1/user/me", token: res.json().data.accessToken });
    expect(me.json().data.data.email).toBe(user.email);
    const all = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(all.map((s) => s.secondFactor).sort()).toEqual(["passkey", "passkey"]);
    const [row] = await t.database.db
      .select()
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.id, user.passkeyId));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
    expect(row?.counter).toBe(1);
  });

  it("refuses a replayed answer, a wrong origin, no user verification and a counter going back", async () => {
    const user = await learnerWithPasskey();
    const challenge = await passwordlessOptions();
    const response = assertPasskey(user.passkey, challenge, site);
    expect((await post("/auth/passkey/verify", { response })).statusCode).toBe(200);
    const replayed = await post("/auth/passkey/verify", { response });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().code).toBe("PASSKEY_CHALLENGE_INVALID");

    const wrong = assertPasskey(user.passkey, await passwordlessOptions(), {
      origin: "https://parlons.test.evil",
      rpId: "parlons.test",
    });
    expect((await post("/auth/passkey/verify", { response: wrong })).json().code).toBe("PASSKEY_INVALID");
    const otherRp = assertPasskey(user.passkey, await passwordlessOptions(), {
      origin: site.origin,
      rpId: "evil.test",
    });
    expect((await post("/auth/passkey/verify", { response: otherRp })).json().code).toBe("PASSKEY_INVALID");

    const noUv = await passwordless(user.passkey, { userVerified: false });
    expect(noUv.statusCode).toBe(401);
    expect(noUv.json().code).toBe("PASSKEY_INVALID");

    // a cloned authenticator shows up as a counter that does not move forward: refused, and the
    // stored counter stays where it was
    const [before] = await t.database.db
      .select()
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.id, user.passkeyId));
    const cloned = await passwordless(user.passkey, { counter: 1 });
    expect(cloned.statusCode).toBe(401);
    expect(cloned.json().code).toBe("PASSKEY_INVALID");
    expect(cloned.json().message).toMatch(/counter/);
    const [after] = await t.database.db
      .select()
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.id, user.passkeyId));
    expect(after?.counter).toBe(before?.counter);
    // the real authenticator goes on
    expect((await passwordless(user.passkey)).statusCode).toBe(200);
  });

  it("refuses an unknown passkey and garbage, and throttles an account's failing attempts", async () => {
    const user = await learnerWithPasskey();
    const stranger = createPasskey({ challenge: "x", user: { id: "eA" } }, site).passkey;
    const unknown = await passwordless(stranger);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe("PASSKEY_UNKNOWN");
    const garbage = await post("/auth/passkey/verify", {
      response: { id: "a", rawId: "a", type: "public-key", response: { clientDataJSON: "!!" } },
    });
    expect(garbage.statusCode).toBe(422);
    const notJson = await post("/auth/passkey/verify", {
      response: {
        ...assertPasskey(user.passkey, "x", site),
        response: { clientDataJSON: "bm90IGpzb24", authenticatorData: "AA", signature: "AA" },
      },
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe("PASSKEY_CHALLENGE_INVALID");

    for (let i = 0; i < THROTTLE.free; i++) {
      const res = await passwordless(user.passkey, { userVerified: false });
      expect(res.json().code).toBe("PASSKEY_INVALID");
    }
    const waiting = await passwordless(user.passkey);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().code).toBe("ACCOUNT_THROTTLED");
    expect(Number(waiting.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("refuses a disabled account", async () => {
    const user = await learnerWithPasskey();
    await t.app.deps.services.users.update(user.id, { status: "DISABLED" });
    const res = await passwordless(user.passkey);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("ACCOUNT_DISABLED");
  });
});

describe("the relying party", () => {
  const base = { DATA_DIR: "/tmp/parlons-passkey-config", JWT_SECRET: "x".repeat(40) };
  it("is PUBLIC_URL's origin and host unless PASSKEY_ORIGIN names another", () => {
    expect(loadConfig({ ...base, PUBLIC_URL: "https://parlons.example/app/" }).passkey).toEqual({
      origin: "https://parlons.example",
      rpId: "parlons.example",
      rpName: "Parlons",
    });
    const e2e = loadConfig({
      ...base,
      PUBLIC_URL: "http://127.0.0.1:3201",
      PASSKEY_ORIGIN: "http://localhost:3201",
    });
    expect(e2e.passkey).toMatchObject({ origin: "http://localhost:3201", rpId: "localhost" });
  });

  it("refuses a PASSKEY_ORIGIN browsers would not use: a path, plain http, an address", () => {
    for (const PASSKEY_ORIGIN of [
      "https://parlons.example/login",
      "http://parlons.example",
      "https://10.0.0.2",
    ]) {
      expect(() => loadConfig({ ...base, PASSKEY_ORIGIN }), PASSKEY_ORIGIN).toThrow(ConfigError);
    }
  });
});
