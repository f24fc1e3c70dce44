import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOAuthProviders,
  type FakeProvider,
  type FakeUser,
  startFakeOAuthProviders,
} from "../../../test/fakes/oauth-providers";
import { buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { loadConfig } from "../../config";
import { oauthAccounts, oneTimeTokens, users } from "../../db/schema";
import { scrubUrl } from "../../lib/log-serializers";

let t: TestContext;
let fake: FakeOAuthProviders;
let n = 0;

beforeAll(async () => {
  fake = await startFakeOAuthProviders();
  t = await buildTestApp({ env: fake.env() });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  for (const p of ["google", "facebook", "github"] as const) fake.setDown(p, false);
});

/** A provider user nobody has seen yet. */
function newUser(over: Partial<FakeUser> = {}): FakeUser {
  n += 1;
  return {
    id: String(5000 + n),
    name: `Social User ${n}`,
    email: `social${n}-${Date.now()}@example.com`,
    ...over,
  };
}

const cookieOf = (res: { cookies: { name: string; value: string }[] }, name: string) =>
  res.cookies.find((c) => c.name === name)?.value;

/**
 * Plays the browser: our start route, the provider's authorize page (the fake 302s back at once),
 * our callback with the state cookie. Returns where the callback sends the browser.
 */
async function roundTrip(
  provider: FakeProvider,
  opts: { lang?: "fr" | "en"; cookie?: string | null; tamper?: boolean } = {},
) {
  const start = await t.request({
    method: "GET",
    url: `/api/v1/auth/oauth/${provider}?lang=${opts.lang ?? "fr"}`,
  });
  expect(start.statusCode).toBe(302);
  const authorize = String(start.headers.location);
  const stateCookie = cookieOf(start, "auth.oauth");
  const atProvider = await fetch(authorize, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get("location") ?? "");
  expect(back.origin).toBe("http://parlons.test");
  if (opts.tamper) back.searchParams.set("state", "forged-state");
  const cookie = opts.cookie === undefined ? stateCookie : opts.cookie;
  const callback = await t.request({
    method: "GET",
    url: `${back.pathname}${back.search}`,
    ...(cookie ? { cookies: { "auth.oauth": cookie } } : {}),
  });
  expect(callback.statusCode).toBe(302);
  return {
    start,
    authorize: new URL(authorize),
    callback,
    landing: new URL(String(callback.headers.location)),
  };
}

const socialLogin = (provider: string, token: string, payload?: object) =>
  t.request({
    method: "POST",
    url: `/api/v1/auth/social-login/${provider}?token=${encodeURIComponent(token)}`,
    ...(payload ? { payload } : {}),
  });

async function me(accessToken: string) {
  const res = await t.request({ method: "GET", url: "/api/v1/user/me", token: accessToken });
  expect(res.statusCode).toBe(200);
  return res.json().data.data;
}

async function countUsers(email: string) {
  const rows = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return rows.length;
}

describe("configuration", () => {
  it("lists every provider whose id and secret are set", async () => {
    const res = await t.request({ method: "GET", url: "/api/v1/auth/providers" });
    expect(res.json()).toEqual({ data: { providers: ["google", "facebook", "github"] } });
  });

  it("a provider with an id but no secret is not configured: not listed, its routes 404", async () => {
    const config = loadConfig({
      DATA_DIR: "/tmp/parlons-social-config",
      JWT_SECRET: "x".repeat(40),
      GOOGLE_CLIENT_ID: "id",
      GOOGLE_CLIENT_SECRET: "s",
      FACEBOOK_APP_ID: "fb",
    });
    expect(config.socialProviders).toEqual(["google"]);
    expect(config.oauth.facebook).toBeUndefined();

    const other = await buildTestApp({
      reset: false,
      env: { ...fake.env(["google"]), FACEBOOK_APP_ID: "only-an-id" },
    });
    try {
      const list = await other.request({ method: "GET", url: "/api/v1/auth/providers" });
      expect(list.json().data.providers).toEqual(["google"]);
      const start = await other.request({ method: "GET", url: "/api/v1/auth/oauth/facebook?lang=fr" });
      expect(start.statusCode).toBe(404);
      expect(start.json().code).toBe("NOT_FOUND");
      const post = await other.request({
        method: "POST",
        url: "/api/v1/auth/social-login/facebook?token=abc",
      });
      expect(post.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("unknown providers 404", async () => {
    expect((await t.request({ method: "GET", url: "/api/v1/auth/oauth/twitter" })).statusCode).toBe(404);
    expect((await socialLogin("twitter", "abc")).statusCode).toBe(404);
  });
});

describe("authorization-code flow", () => {
  it("google: PKCE, scopes, state cookie; creates an ACTIVE CUSTOMER on the free plan; the ticket opens a session", async () => {
    const person = newUser({ name: "Amélie Poulain" });
    fake.setUser("google", person);
    const { start, authorize, landing } = await roundTrip("google", { lang: "fr" });

    expect(authorize.searchParams.get("client_id")).toBe(fake.credentials.google.clientId);
    expect(authorize.searchParams.get("redirect_uri")).toBe(
      "http://parlons.test/api/v1/auth/oauth/google/callback",
    );
    expect(authorize.searchParams.get("scope")).toBe("openid email profile");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("state")?.length).toBeGreaterThanOrEqual(43);
    expect(authorize.toString()).not.toContain(fake.credentials.google.clientSecret);
    const setCookie = String(start.headers["set-cookie"]);
    expect(setCookie).toMatch(/auth\.oauth=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\/api\/v1\/auth\/oauth/);

    expect(`${landing.origin}${landing.pathname}`).toBe("http://parlons.test/login");
    expect(landing.searchParams.get("provider")).toBe("google");
    const ticket = landing.searchParams.get("token") ?? "";
    expect(ticket).toMatch(/^st_[A-Za-z0-9_-]{43}$/);

    const res = await socialLogin("google", ticket, { email: "ignored@example.com" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      message: "Logged in successfully",
      data: { expiresIn: expect.any(Number) },
    });
    expect(body.access_token).toBe(body.data.accessToken);
    expect(cookieOf(res, "auth.refresh")).toBeTruthy();

    const user = await me(body.access_token);
    expect(user).toMatchObject({
      email: person.email,
      full_name: "Amélie Poulain",
      status: "ACTIVE",
      role: "CUSTOMER",
      speak: "FR",
      plan: { is_default: true, amount: 0 },
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toBeNull();
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
    const links = await t.database.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, user.id));
    expect(links).toMatchObject([{ provider: "google", providerUserId: person.id }]);
    // the refresh cookie works like a password login's
    const refreshed = await t.request({
      method: "POST",
      url: "/api/v1/auth/refresh",
      cookies: { "auth.refresh": cookieOf(res, "auth.refresh") ?? "" },
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it("facebook: English start lands on /en/login; account speaks EN", async () => {
    const person = newUser();
    fake.setUser("facebook", person);
    const { authorize, landing } = await roundTrip("facebook", { lang: "en" });
    expect(authorize.searchParams.get("scope")).toBe("email,public_profile");
    expect(authorize.searchParams.get("code_challenge")).toBeNull();
    expect(`${landing.origin}${landing.pathname}`).toBe("http://parlons.test/en/login");
    const res = await socialLogin("facebook", landing.searchParams.get("token") ?? "");
    expect(res.statusCode).toBe(200);
    expect(await me(res.json().access_token)).toMatchObject({
      email: person.email,
      speak: "EN",
      role: "CUSTOMER",
    });
  });

  it("github: verified primary address from /user/emails; a second sign-in reuses the link", async () => {
    const person = newUser({ name: "Grace Hopper" });
    fake.setUser("github", person);
    const first = await roundTrip("github");
    expect(first.authorize.searchParams.get("scope")).toBe("read:user user:email");
    const a = await socialLogin("github", first.landing.searchParams.get("token") ?? "");
    expect(a.statusCode).toBe(200);
    const userA = await me(a.json().access_token);
    expect(userA).toMatchObject({ email: person.email, full_name: "Grace Hopper" });

    // same GitHub id, address changed at GitHub: the link wins, no new account
    fake.setUser("github", { ...person, email: `changed-${person.email}` });
    const second = await roundTrip("github");
    const b = await socialLogin("github", second.landing.searchParams.get("token") ?? "");
    expect((await me(b.json().access_token)).id).toBe(userA.id);
    expect(await countUsers(`changed-${person.email}`)).toBe(0);
  });

  it("state mismatch, missing state cookie or a cookie of another provider: social_error=state, no ticket", async () => {
    fake.setUser("google", newUser());
    const forged = await roundTrip("google", { tamper: true });
    expect(forged.landing.searchParams.get("social_error")).toBe("state");
    expect(forged.landing.searchParams.get("token")).toBeNull();

    const noCookie = await roundTrip("google", { cookie: null });
    expect(noCookie.landing.searchParams.get("social_error")).toBe("state");

    const fb = await t.request({ method: "GET", url: "/api/v1/auth/oauth/facebook?lang=en" });
    const fbCookie = cookieOf(fb, "auth.oauth");
    const crossed = await roundTrip("google", { cookie: fbCookie ?? "" });
    expect(crossed.landing.searchParams.get("social_error")).toBe("state");
    // the language of the cookie is kept: English error page
    expect(crossed.landing.pathname).toBe("/en/login");

    const tampered = await roundTrip("google", { cookie: `${fbCookie?.replace(/^facebook/, "google")}` });
    expect(tampered.landing.searchParams.get("social_error")).toBe("state");
  });

  it("the user cancels at the provider: social_error=denied", async () => {
    fake.deny("github");
    const { landing } = await roundTrip("github");
    expect(landing.searchParams.get("social_error")).toBe("denied");
  });

  it("a ticket works once, and not after 2 minutes", async () => {
    fake.setUser("google", newUser());
    const { landing } = await roundTrip("google");
    const ticket = landing.searchParams.get("token") ?? "";
    expect((await socialLogin("google", ticket)).statusCode).toBe(200);
    const again = await socialLogin("google", ticket);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ statusCode: 401, code: "SOCIAL_LOGIN_FAILED" });

    fake.setUser("google", newUser());
    const late = (await roundTrip("google")).landing.searchParams.get("token") ?? "";
    const [row] = await t.database.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.kind, "social_login"))
      .orderBy(sql`${oneTimeTokens.createdAt} desc`)
      .limit(1);
    expect(row && row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(2 * 60_000 + 1000);
    await t.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.kind, "social_login"));
    const expired = await socialLogin("google", late);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe("SOCIAL_LOGIN_FAILED");
    // tickets are stored hashed
    expect(row?.tokenHash).not.toBe(late);
  });

  it("the provider is down: social_error=unavailable", async () => {
    fake.setUser("facebook", newUser());
    const start = await t.request({ method: "GET", url: "/api/v1/auth/oauth/facebook" });
    const back = new URL(
      (await fetch(String(start.headers.location), { redirect: "manual" })).headers.get("location") ?? "",
    );
    fake.setDown("facebook", true);
    const callback = await t.request({
      method: "GET",
      url: `${back.pathname}${back.search}`,
      cookies: { "auth.oauth": cookieOf(start, "auth.oauth") ?? "" },
    });
    expect(new URL(String(callback.headers.location)).searchParams.get("social_error")).toBe("unavailable");
  });
});

describe("account resolution", () => {
  it("an existing account with the same verified email is linked, not duplicated; its password still works", async () => {
    const existing = await t.createUser({ email: `linkme-${Date.now()}@example.com` });
    const person = newUser({ email: existing.email, name: "Another Name" });
    fake.setUser("google", person);
    const { landing } = await roundTrip("google");
    const res = await socialLogin("google", landing.searchParams.get("token") ?? "");
    const user = await me(res.json().access_token);
    expect(user.id).toBe(existing.id);
    expect(user.full_name).not.toBe("Another Name");
    expect(await countUsers(existing.email)).toBe(1);
    expect(await t.login(existing.email, PASSWORD)).toBeTruthy();

    // the same address at another provider lands on the same account
    fake.setUser("github", newUser({ email: existing.email }));
    const gh = await roundTrip("github");
    const ghRes = await socialLogin("github", gh.landing.searchParams.get("token") ?? "");
    expect((await me(ghRes.json().access_token)).id).toBe(existing.id);
    const links = await t.database.db
      .select()
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, existing.id));
    expect(links.map((l) => l.provider).sort()).toEqual(["github", "google"]);
  });

  it("an unverified email never links to an existing account nor creates one", async () => {
    const existing = await t.createUser({ email: `victim-${Date.now()}@example.com` });
    const attacker = newUser({ email: existing.email, emailVerified: false });
    fake.setUser("google", attacker);
    const { landing } = await roundTrip("google");
    expect(landing.searchParams.get("social_error")).toBe("email");

    const direct = await socialLogin("google", fake.mintToken("google", attacker));
    expect(direct.statusCode).toBe(401);
    expect(direct.json().code).toBe("SOCIAL_LOGIN_FAILED");

    fake.setUser("github", newUser({ email: existing.email, emailVerified: false }));
    const gh = await roundTrip("github");
    expect(gh.landing.searchParams.get("social_error")).toBe("email");

    const links = await t.database.db
      .select()
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, existing.id));
    expect(links).toEqual([]);
    const stranger = newUser({ emailVerified: false });
    expect((await socialLogin("google", fake.mintToken("google", stranger))).statusCode).toBe(401);
    expect(await countUsers(stranger.email ?? "")).toBe(0);
  });

  it("a never-activated account is activated by a verified sign-in and its unproven password dropped", async () => {
    const pending = await t.createUser({ email: `pending-${Date.now()}@example.com`, status: "PENDING" });
    const res = await socialLogin("google", fake.mintToken("google", newUser({ email: pending.email })));
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, pending.id));
    expect(row).toMatchObject({ status: "ACTIVE", passwordHash: null });
  });

  it("a disabled account: 403 ACCOUNT_DISABLED (direct) and social_error=disabled (redirect flow)", async () => {
    const disabled = await t.createUser({ email: `disabled-${Date.now()}@example.com`, status: "DISABLED" });
    const person = newUser({ email: disabled.email });
    const direct = await socialLogin("google", fake.mintToken("google", person));
    expect(direct.statusCode).toBe(403);
    expect(direct.json()).toMatchObject({ statusCode: 403, code: "ACCOUNT_DISABLED" });
    fake.setUser("google", person);
    const { landing } = await roundTrip("google");
    expect(landing.searchParams.get("social_error")).toBe("disabled");
  });

  it("registrations closed: a new account is refused, an existing one still signs in", async () => {
    const admin = await t.adminToken();
    const close = await t.request({
      method: "POST",
      url: "/api/v1/settings",
      token: admin,
      payload: { registrations_open: false },
    });
    expect(close.statusCode).toBe(200);
    try {
      const res = await socialLogin("github", fake.mintToken("github", newUser()));
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("REGISTRATIONS_CLOSED");
      fake.setUser("facebook", newUser());
      expect((await roundTrip("facebook")).landing.searchParams.get("social_error")).toBe("closed");
      const existing = await t.createUser();
      expect(
        (await socialLogin("github", fake.mintToken("github", newUser({ email: existing.email }))))
          .statusCode,
      ).toBe(200);
    } finally {
      await t.request({
        method: "POST",
        url: "/api/v1/settings",
        token: admin,
        payload: { registrations_open: true },
      });
    }
  });
});

describe("direct provider tokens (the spec's client)", () => {
  it("google ID token, facebook and github access tokens each open a session; body.speak sets the language", async () => {
    for (const provider of ["google", "facebook", "github"] as const) {
      const person = newUser();
      const res = await socialLogin(provider, fake.mintToken(provider, person), { speak: "EN" });
      expect(res.statusCode, provider).toBe(200);
      expect(await me(res.json().access_token)).toMatchObject({
        email: person.email,
        speak: "EN",
        role: "CUSTOMER",
      });
      const [link] = await t.database.db
        .select()
        .from(oauthAccounts)
        .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerUserId, person.id)));
      expect(link).toBeDefined();
    }
  });

  it("a token issued to another client or app is refused with 401", async () => {
    for (const provider of ["google", "facebook", "github"] as const) {
      const person = newUser();
      const res = await socialLogin(provider, fake.mintToken(provider, person, { audience: "someone-else" }));
      expect(res.statusCode, provider).toBe(401);
      expect(res.json().code).toBe("SOCIAL_LOGIN_FAILED");
      expect(await countUsers(person.email ?? "")).toBe(0);
    }
  });

  it("an expired or made-up token is refused with 401", async () => {
    const expired = fake.mintToken("google", newUser(), { expiresInSeconds: -10 });
    expect((await socialLogin("google", expired)).statusCode).toBe(401);
    expect((await socialLogin("facebook", "EAAmadeup")).statusCode).toBe(401);
    expect((await socialLogin("github", "gho_madeup")).statusCode).toBe(401);
    expect((await socialLogin("google", "st_notaticket")).json().code).toBe("SOCIAL_LOGIN_FAILED");
  });

  it("the provider down: 502 PROVIDER_ERROR", async () => {
    for (const provider of ["google", "facebook", "github"] as const) {
      const token = fake.mintToken(provider, newUser());
      fake.setDown(provider, true);
      const res = await socialLogin(provider, token);
      expect(res.statusCode, provider).toBe(502);
      expect(res.json()).toMatchObject({ statusCode: 502, code: "PROVIDER_ERROR" });
      fake.setDown(provider, false);
    }
  });

  it("rate limited like password login", async () => {
    const limited = await buildTestApp({
      reset: false,
      env: { ...fake.env(["github"]), RATE_LIMIT_AUTH_MAX: "2" },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.request({
          method: "POST",
          url: "/api/v1/auth/social-login/github?token=gho_nope",
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("logs", () => {
  it("query-string credentials are hidden from request log lines", () => {
    expect(scrubUrl("/api/v1/auth/social-login/google?token=st_abc&x=1")).toBe(
      "/api/v1/auth/social-login/google?token=[redacted]&x=1",
    );
    expect(scrubUrl("/api/v1/auth/oauth/github/callback?code=c0de&state=s7")).toBe(
      "/api/v1/auth/oauth/github/callback?code=[redacted]&state=[redacted]",
    );
  });
});
