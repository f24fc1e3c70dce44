import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config";
import { createMailer } from "../src/integrations/mail/mailer";
import { startSmtpSink } from "./fakes/smtp-sink";
import { buildTestApp, type TestContext } from "./helpers/build";

describe("health and docs", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("GET /api/health answers ok when the database answers", async () => {
    const res = await t.request({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("serves the OpenAPI document built from the route schemas", async () => {
    const res = await t.request({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/user/authenticate", "/api/v1/user/me", "/api/v1/api/role"]),
    );
    expect(doc.paths["/api/v1/user/authenticate"].post.responses["200"]).toBeDefined();
    expect((await t.request({ method: "GET", url: "/api/docs" })).statusCode).toBeLessThan(400);
  });

  it("sends security headers: a strict CSP, no sniffing, no framing", async () => {
    const res = await t.request({ method: "GET", url: "/api/health" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("answers unknown API routes with the JSON error envelope", async () => {
    const res = await t.request({ method: "GET", url: "/api/v1/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, code: "NOT_FOUND" });
  });
});

describe("web app serving", () => {
  let t: TestContext;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), "parlons-web-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Parlons</title>");
    writeFileSync(path.join(dist, "assets", "app-abc123.js"), "console.log(1)");
    t = await buildTestApp({ env: { WEB_DIST: dist }, reset: false });
  });
  afterAll(() => t.close());

  it("redirects / to /en with 302 when the language cookie says en", async () => {
    const res = await t.request({ method: "GET", url: "/", cookies: { i18n_redirected: "en" } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/en");
  });

  it("serves French at / without the cookie or with fr", async () => {
    for (const cookies of [{}, { i18n_redirected: "fr" }] as Record<string, string>[]) {
      const res = await t.request({ method: "GET", url: "/", cookies });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain("<title>Parlons</title>");
    }
  });

  it("serves index.html for app routes in both locales and caches hashed assets", async () => {
    // (a lesson page of an unknown course answers 404 now: test/web-pages.test.ts)
    for (const url of ["/dashboard", "/en/billing", "/User/edit", "/some-slug/index_old"]) {
      const res = await t.request({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-cache");
    }
    const asset = await t.request({ method: "GET", url: "/assets/app-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
  });
});

describe("rate limits", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_AUTH_MAX: "3" }, reset: false });
  });
  afterAll(() => t.close());

  it("sign-in, sign-up and forgot-password answer 429 with Retry-After past the limit", async () => {
    const calls = [
      {
        method: "POST" as const,
        url: "/api/v1/user/authenticate",
        payload: { username: "x@y.zz", password: "nope-nope!" },
      },
      {
        method: "POST" as const,
        url: "/api/v1/user/self-register",
        payload: { email: "bad", password: "x" },
      },
      { method: "POST" as const, url: "/api/v1/auth/forgot-password?email=x@y.zz" },
    ];
    for (const call of calls) {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<TestContext["request"]>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await t.request(call);
        statuses.push(last.statusCode);
      }
      expect(
        statuses.slice(0, 3).every((s) => s !== 429),
        call.url,
      ).toBe(true);
      expect(statuses[3], call.url).toBe(429);
      expect(last?.headers["retry-after"]).toBeDefined();
      expect(last?.json()).toMatchObject({ statusCode: 429, code: "RATE_LIMITED" });
    }
  });
});

describe("mail", () => {
  it("delivers through SMTP when SMTP_URL is set", async () => {
    const sink = await startSmtpSink();
    try {
      const mailer = createMailer({
        smtpUrl: sink.url,
        outboxDir: "/nonexistent",
        from: "Parlons <no-reply@parlons.test>",
      });
      expect(mailer.kind).toBe("smtp");
      await mailer.send({
        to: "ana@example.com",
        subject: "Bonjour",
        text: "Salut Ana",
        html: "<p>Salut Ana</p>",
      });
      mailer.close();
      expect(sink.received).toHaveLength(1);
      expect(sink.received[0]?.to).toEqual(["ana@example.com"]);
      expect(sink.received[0]?.raw).toContain("Subject: Bonjour");
    } finally {
      await sink.close();
    }
  });

  it("writes .eml files to the outbox without SMTP", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parlons-mail-"));
    const mailer = createMailer({ outboxDir: dir, from: "Parlons <no-reply@parlons.test>" });
    const { file } = await mailer.send({ to: "ana@example.com", subject: "Réinitialisation", text: "Lien" });
    expect(file && path.dirname(file)).toBe(dir);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(readFileSync(file ?? "", "utf8")).toContain("To: ana@example.com");
  });

  it("self-registration with a real SMTP server mails the activation link", async () => {
    const sink = await startSmtpSink();
    const t = await buildTestApp({ reset: false });
    try {
      const mailer = createMailer({
        smtpUrl: sink.url,
        outboxDir: "/nonexistent",
        from: "Parlons <no-reply@parlons.test>",
      });
      const { createAuthService } = await import("../src/modules/auth/service");
      const { createMailOutbox } = await import("../src/modules/mail/outbox");
      const { createTransactionalMails } = await import("../src/modules/mail/transactional");
      const auth = createAuthService({
        db: t.database.db,
        audit: t.app.deps.services.audit,
        outbox: createMailOutbox({ db: t.database.db }),
        mails: createTransactionalMails({ publicUrl: "http://parlons.test" }),
        users: t.app.deps.services.users,
        sessions: t.app.deps.services.sessions,
        mailer,
        settings: t.app.deps.services.settings,
        publicUrl: "http://parlons.test",
        log: t.app.log,
      });
      const user = await auth.register({
        email: "smtp.user@example.com",
        password: "secret-pw!",
        speak: "FR",
      });
      expect(user.status).toBe("PENDING");
      mailer.close();
      expect(sink.received.at(-1)?.raw).toMatch(/parlons\.test\/activate\//);
    } finally {
      await t.close();
      await sink.close();
    }
  });
});

describe("configuration", () => {
  it("refuses invalid values at start-up with a clear message", () => {
    expect(() => loadConfig({ PORT: "not-a-port", DATA_DIR: tmpdir() })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: "short", DATA_DIR: tmpdir() })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ DATABASE_URL: "nope", DATA_DIR: tmpdir() })).toThrow(/DATABASE_URL/);
  });

  it("generates a JWT secret once and keeps it in DATA_DIR", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parlons-cfg-"));
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.jwtSecret).toBe(a.jwtSecret);
    expect(a.port).toBe(3000);
    expect(a.publicUrl).toBe("http://localhost:3000");
  });
});
