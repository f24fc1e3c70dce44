import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { outboxWorkerOf } from "../../../test/helpers/mail-workers";

// With SMTP configured, self-registered accounts wait for activation.
let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ mailerKind: "smtp" });
});
afterAll(() => t.close());

const post = (url: string, payload?: object, token?: string) =>
  t.request({ method: "POST", url, payload, token });
const authenticate = (username: string, password: string) =>
  post("/api/v1/user/authenticate", { username, password });
/** The work a reset request or a resend does after its answer, then the queued mails sent. */
const mailsSent = async () => {
  await t.app.deps.services.auth.settled();
  await outboxWorkerOf(t).runOnce();
};

describe("activation", () => {
  it("pending until the mailed link is used; the link works once", async () => {
    const res = await post("/api/v1/user/self-register", {
      email: "fr@example.com",
      password: "secret-pw!",
      speak: "FR",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.status).toBe("PENDING");
    const before = await authenticate("fr@example.com", "secret-pw!");
    expect(before.statusCode).toBe(403);
    expect(before.json().code).toBe("ACCOUNT_NOT_ACTIVATED");

    const mail = t.mailbox.last("fr@example.com");
    expect(mail?.subject).toBe("Activez votre compte Parlons");
    const token = t.mailbox.linkIn(mail, /http:\/\/parlons\.test\/activate\/([\w-]+)/);
    const activated = await t.request({ method: "GET", url: `/api/v1/user/account-activate/${token}` });
    expect(activated.statusCode).toBe(200);
    expect(activated.json().data.email).toBe("fr@example.com");
    expect((await authenticate("fr@example.com", "secret-pw!")).statusCode).toBe(200);

    const again = await t.request({ method: "GET", url: `/api/v1/user/account-activate/${token}` });
    expect(again.statusCode).toBe(400);
  });

  it("mails English users an /en link, and resend replaces the old link", async () => {
    await post("/api/v1/user/self-register", {
      email: "en@example.com",
      password: "secret-pw!",
      speak: "EN",
    });
    const first = t.mailbox.linkIn(t.mailbox.last("en@example.com"), /\/en\/activate\/([\w-]+)/);
    expect(t.mailbox.last("en@example.com")?.subject).toBe("Activate your Parlons account");
    expect((await post("/api/v1/user/resend-activation", { email: "en@example.com" })).statusCode).toBe(200);
    await mailsSent();
    const second = t.mailbox.linkIn(t.mailbox.last("en@example.com"), /\/en\/activate\/([\w-]+)/);
    expect(second).not.toBe(first);
    expect(
      (await t.request({ method: "GET", url: `/api/v1/user/account-activate/${first}` })).statusCode,
    ).toBe(400);
    expect(
      (await t.request({ method: "GET", url: `/api/v1/user/account-activate/${second}` })).statusCode,
    ).toBe(200);
  });

  it("rejects an unknown or expired token", async () => {
    expect(
      (await t.request({ method: "GET", url: "/api/v1/user/account-activate/not-a-real-token-at-all" }))
        .statusCode,
    ).toBe(400);
    await post("/api/v1/user/self-register", { email: "late@example.com", password: "secret-pw!" });
    const token = t.mailbox.linkIn(t.mailbox.last("late@example.com"), /\/activate\/([\w-]+)/);
    const { sql } = await import("drizzle-orm");
    await t.database.db.execute(sql`update one_time_tokens set expires_at = now() - interval '1 second'`);
    expect(
      (await t.request({ method: "GET", url: `/api/v1/user/account-activate/${token}` })).statusCode,
    ).toBe(400);
  });
});

describe("password reset", () => {
  it("always answers 200; mails a single-use link only to existing accounts", async () => {
    const count = t.mailbox.messages.length;
    const unknown = await post("/api/v1/auth/forgot-password?email=ghost@example.com");
    expect(unknown.statusCode).toBe(200);
    await mailsSent();
    expect(t.mailbox.messages.length).toBe(count);

    const user = await t.createUser({ speak: "EN" });
    const known = await post(`/api/v1/auth/forgot-password?email=${encodeURIComponent(user.email)}`);
    expect(known.statusCode).toBe(200);
    await mailsSent();
    expect(known.json().message).toBe(unknown.json().message);
    const token = t.mailbox.linkIn(t.mailbox.last(user.email), /\/en\/reset-password\/([\w-]+)/);

    const check = await post("/api/v1/user/checkPasswordResetToken", { token });
    expect(check.json().data).toMatchObject({ valid: true, email: user.email });

    const weak = await post("/api/v1/auth/reset-forgot-password", { token, password: "short" });
    expect(weak.statusCode).toBe(422);

    const done = await post("/api/v1/auth/reset-forgot-password", { token, password: "brand-new-pw!" });
    expect(done.statusCode).toBe(200);
    // every session of the user ended, the old password is gone, the new one works
    expect((await t.request({ method: "GET", url: "/api/v1/user/me", token: user.token })).statusCode).toBe(
      401,
    );
    expect((await authenticate(user.email, PASSWORD)).statusCode).toBe(401);
    expect((await authenticate(user.email, "brand-new-pw!")).statusCode).toBe(200);
    // the owner is told their password changed, with the way back if it was not them
    await mailsSent();
    const told = t.mailbox.last(user.email);
    expect(told?.subject).toBe("Your Parlons password was changed");
    expect(told?.text).toMatch(/\/en\/forgot-password/);
    // single use
    expect((await post("/api/v1/user/reset", { token, password: "another-pw!!" })).statusCode).toBe(400);
    expect((await post("/api/v1/user/checkPasswordResetToken", { token })).json().data.valid).toBe(false);
  });

  it("POST /v1/user/reset works like reset-forgot-password", async () => {
    const user = await t.createUser();
    await post(`/api/v1/auth/forgot-password?email=${encodeURIComponent(user.email)}`);
    await mailsSent();
    const token = t.mailbox.linkIn(t.mailbox.last(user.email), /\/reset-password\/([\w-]+)/);
    expect((await post("/api/v1/user/reset", { token, password: "via-user-reset!" })).statusCode).toBe(200);
    expect((await authenticate(user.email, "via-user-reset!")).statusCode).toBe(200);
  });

  it("answers 422 on a missing email", async () => {
    expect((await post("/api/v1/auth/forgot-password")).statusCode).toBe(422);
  });
});

describe("change password", () => {
  it("needs the current password, keeps this session and ends the others", async () => {
    const user = await t.createUser();
    const other = await t.login(user.email, PASSWORD);
    const url = "/api/v1/auth/change-password";
    expect((await post(url, { currentPassword: PASSWORD, newPassword: "next-pw-123!" })).statusCode).toBe(
      401,
    );
    const wrong = await post(
      url,
      { currentPassword: "not-it-at-all!", newPassword: "next-pw-123!" },
      user.token,
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe("WRONG_PASSWORD");
    expect((await post(url, { currentPassword: PASSWORD, newPassword: "weak" }, user.token)).statusCode).toBe(
      422,
    );
    const ok = await post(url, { currentPassword: PASSWORD, newPassword: "next-pw-123!" }, user.token);
    expect(ok.statusCode).toBe(200);
    expect((await t.request({ method: "GET", url: "/api/v1/user/me", token: user.token })).statusCode).toBe(
      200,
    );
    expect((await t.request({ method: "GET", url: "/api/v1/user/me", token: other })).statusCode).toBe(401);
    expect((await authenticate(user.email, "next-pw-123!")).statusCode).toBe(200);
    // a mail tells the owner, in their language
    await mailsSent();
    const told = t.mailbox.last(user.email);
    expect(told?.subject).toBe("Le mot de passe de votre compte Parlons a changé");
    expect(told?.text).toContain("Si c'était vous, il n'y a rien à faire.");
  });
});

describe("validations", () => {
  it("email-exists and username-exists tell whether an account uses the address", async () => {
    const yes = await post(
      `/api/v1/validations/email-exists?email=${encodeURIComponent(ADMIN.email.toUpperCase())}`,
    );
    expect(yes.json()).toEqual({ data: { exists: true } });
    const no = await post("/api/v1/validations/username-exists?username=nobody@example.com");
    expect(no.json()).toEqual({ data: { exists: false } });
    expect((await post("/api/v1/validations/email-exists")).statusCode).toBe(422);
  });
});
