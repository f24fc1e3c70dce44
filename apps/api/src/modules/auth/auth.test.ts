import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const register = (payload: object) =>
  t.request({ method: "POST", url: "/api/v1/user/self-register", payload });
const authenticate = (username: string, password: string) =>
  t.request({ method: "POST", url: "/api/v1/user/authenticate", payload: { username, password } });
const refreshCookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === "auth.refresh")?.value;

describe("self-register (no SMTP: active at once)", () => {
  it("creates an active CUSTOMER whatever role is sent, on the free plan", async () => {
    const res = await register({
      email: "Ana@Example.com",
      password: "secret-pw!",
      role: "ADMIN",
      course_id: null,
      speak: "EN",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ data: { email: "ana@example.com", status: "ACTIVE" } });
    const token = (await authenticate("ana@example.com", "secret-pw!")).json().data.accessToken;
    const me = await t.request({ method: "GET", url: "/api/v1/user/me", token });
    expect(me.statusCode).toBe(200);
    const user = me.json().data.data;
    expect(user).toMatchObject({
      email: "ana@example.com",
      role: "CUSTOMER",
      speak: "EN",
      plan: { name: "Discovery", name_fr: "Découverte", amount: 0, is_default: true },
    });
    expect(user.roles[0].title).toBe("CUSTOMER");
    expect(user.permissions).not.toContain("users.read");
    expect(user.modules.map((m: { path: string }) => m.path)).not.toContain("/admin");
    expect(t.mailbox.last("ana@example.com")?.subject).toBe("Welcome to Parlons");
  });

  it("refuses a taken email with 409 and keeps the first account", async () => {
    await register({ email: "dup@example.com", password: "secret-pw!" });
    const res = await register({ email: "DUP@example.com", password: "other-pw!!" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ statusCode: 409, code: "EMAIL_TAKEN" });
    expect((await authenticate("dup@example.com", "secret-pw!")).statusCode).toBe(200);
  });

  it("answers 422 with field messages of spec §5", async () => {
    const cases: [object, string, string][] = [
      [{ email: "", password: "secret-pw!" }, "email", "Email is required"],
      [{ email: "not-an-email", password: "secret-pw!" }, "email", "Please enter a valid email"],
      [{ email: "a@b.co", password: "" }, "password", "Cannot be empty"],
      [{ email: "a@b.co", password: "short!" }, "password", "At least 8 Characters long"],
      [{ email: "a@b.co", password: "longenough1" }, "password", "Should atleast have a special character"],
      [{ email: "a@b.co", password: "secret-pw!", speak: "DE" }, "speak", ""],
    ];
    for (const [payload, field, message] of cases) {
      const res = await register(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const body = res.json();
      expect(body.code).toBe("VALIDATION_FAILED");
      expect(body.errors[field]).toBeDefined();
      if (message) expect(body.errors[field]).toContain(message);
    }
  });

  it("answers 400 on a body that is not JSON", async () => {
    const res = await t.request({
      method: "POST",
      url: "/api/v1/user/self-register",
      headers: { "content-type": "application/json" },
      payload: "{oops",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("authenticate", () => {
  it("returns data.accessToken, a message and an httpOnly refresh cookie", async () => {
    const res = await authenticate(ADMIN.email, ADMIN.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBeTruthy();
    expect(res.json().data.accessToken).toMatch(/^ey/);
    const cookie = res.cookies.find((c) => c.name === "auth.refresh");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/v1/auth" });
  });

  it("gives one generic 401 for an unknown email and a wrong password", async () => {
    const unknown = await authenticate("nobody@example.com", "whatever-pw!");
    const wrong = await authenticate(ADMIN.email, "wrong-password!");
    for (const res of [unknown, wrong]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: "INVALID_CREDENTIALS", message: "Invalid email or password" });
    }
  });

  it("answers 422 when fields are missing", async () => {
    const res = await t.request({
      method: "POST",
      url: "/api/v1/user/authenticate",
      payload: { username: "" },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(["username", "password"]));
  });

  it("refuses a disabled account with 403", async () => {
    const u = await t.createUser({ status: "DISABLED" });
    const res = await authenticate(u.email, PASSWORD);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("ACCOUNT_DISABLED");
  });
});

describe("sessions", () => {
  it("requires a token on /v1/user/me and refuses a forged one", async () => {
    expect((await t.request({ method: "GET", url: "/api/v1/user/me" })).statusCode).toBe(401);
    const forged = await t.request({
      method: "GET",
      url: "/api/v1/user/me",
      token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl",
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe("TOKEN_INVALID");
  });

  it("rotates the refresh token; reusing an old one ends the whole session", async () => {
    const login = await authenticate(ADMIN.email, ADMIN.password);
    const first = refreshCookieOf(login);
    const access = login.json().data.accessToken;
    const r1 = await t.request({
      method: "POST",
      url: "/api/v1/auth/refresh",
      cookies: { "auth.refresh": first ?? "" },
    });
    expect(r1.statusCode).toBe(200);
    const second = refreshCookieOf(r1);
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    // the old token comes back later (outside the grace window): simulate by ageing its use
    await t.database.db.execute(
      (await import("drizzle-orm"))
        .sql`update refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null`,
    );
    const reuse = await t.request({
      method: "POST",
      url: "/api/v1/auth/refresh",
      cookies: { "auth.refresh": first ?? "" },
    });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe("SESSION_REVOKED");
    // the family is dead: the newest refresh token and the access token stop working too
    const after = await t.request({
      method: "POST",
      url: "/api/v1/auth/refresh",
      cookies: { "auth.refresh": second ?? "" },
    });
    expect(after.statusCode).toBe(401);
    expect((await t.request({ method: "GET", url: "/api/v1/user/me", token: access })).statusCode).toBe(401);
  });

  it("answers 401 without a refresh cookie or with an unknown one", async () => {
    expect((await t.request({ method: "POST", url: "/api/v1/auth/refresh" })).statusCode).toBe(401);
    const res = await t.request({
      method: "POST",
      url: "/api/v1/auth/refresh",
      cookies: { "auth.refresh": "nope" },
    });
    expect(res.statusCode).toBe(401);
  });

  it("logout revokes the access token and the refresh token (ASVS 7.4.1)", async () => {
    const login = await authenticate(ADMIN.email, ADMIN.password);
    const token = login.json().data.accessToken;
    const cookie = refreshCookieOf(login) ?? "";
    expect((await t.request({ method: "GET", url: "/api/v1/user/me", token })).statusCode).toBe(200);
    const out = await t.request({
      method: "GET",
      url: "/api/v1/auth/logout",
      token,
      cookies: { "auth.refresh": cookie },
    });
    expect(out.statusCode).toBe(200);
    const me = await t.request({ method: "GET", url: "/api/v1/user/me", token });
    expect(me.statusCode).toBe(401);
    expect(me.json().code).toBe("SESSION_REVOKED");
    expect(
      (await t.request({ method: "POST", url: "/api/v1/auth/refresh", cookies: { "auth.refresh": cookie } }))
        .statusCode,
    ).toBe(401);
  });

  it("refuses an expired access token with TOKEN_EXPIRED", async () => {
    const { createTokenSigner } = await import("./tokens");
    const signer = createTokenSigner(t.config.jwtSecret, 1);
    const sessions = t.app.deps.services.sessions;
    const admin = await t.app.deps.services.users.findByEmail(ADMIN.email);
    const started = await sessions.start(admin?.id ?? "", {});
    const token = await signer.sign({ sub: admin?.id ?? "", sid: started.sessionId });
    await new Promise((r) => setTimeout(r, 2100));
    const res = await t.request({ method: "GET", url: "/api/v1/user/me", token });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("TOKEN_EXPIRED");
  });
});
