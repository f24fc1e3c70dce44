import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { outboxWorkerOf } from "../../../test/helpers/mail-workers";
import { sessions } from "../../db/schema/auth";
import { createLastSeen } from "./last-seen";

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15";

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Signs in as a browser would, from an address; the access token. */
async function signIn(email: string, userAgent: string, remoteAddress: string): Promise<string> {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/user/authenticate",
    remoteAddress,
    headers: { "user-agent": userAgent },
    payload: { username: email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.accessToken;
}
const mine = (token: string) => t.request({ method: "GET", url: "/api/v1/user/me/sessions", token });
const me = (token: string) => t.request({ method: "GET", url: "/api/v1/user/me", token });
const settled = async () => {
  await t.app.deps.services.newDevice.settled();
  await t.app.deps.services.lastSeen.settled();
};

describe("where you are signed in", () => {
  it("lists my live sessions: device, address network only, this one marked first", async () => {
    const user = await t.createUser();
    const firefox = await signIn(user.email, FIREFOX_LINUX, "203.0.113.77");
    const chrome = await signIn(user.email, CHROME_WINDOWS, "2001:db8:1234:5678::9");
    const res = await mine(chrome);
    expect(res.statusCode).toBe(200);
    const list = res.json().data as Record<string, unknown>[];
    expect(list).toHaveLength(3); // createUser signed in once too
    expect(list[0]).toMatchObject({
      browser: "Chrome",
      os: "Windows",
      address: "2001:db8:1234::/48",
      current: true,
    });
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list).toContainEqual(
      expect.objectContaining({ browser: "Firefox", os: "Linux", address: "203.0.113.x", current: false }),
    );
    // never the address itself
    expect(res.body).not.toContain("203.0.113.77");
    expect(res.body).not.toContain("5678");
    // another learner's list holds none of these
    const other = await t.createUser();
    const theirs = (await mine(other.token)).json().data as { id: string }[];
    expect(theirs).toHaveLength(1);
    expect(list.map((s) => s.id)).not.toContain(theirs[0]?.id);
    await me(firefox);
  });

  it("ending one: its tokens are refused at once (even cached), its refresh too; another user's is 404", async () => {
    const user = await t.createUser();
    const res = await t.request({
      method: "POST",
      url: "/api/v1/user/authenticate",
      headers: { "user-agent": FIREFOX_LINUX },
      payload: { username: user.email, password: PASSWORD },
    });
    const other = res.json().data.accessToken as string;
    const refresh = res.cookies.find((c) => c.name.includes("refresh"));
    expect(refresh).toBeDefined();
    // the other session's principal is in memory now
    expect((await me(other)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(200);
    const list = (await mine(user.token)).json().data as { id: string; current: boolean }[];
    const target = list.find((s) => !s.current);
    if (!target) throw new Error("no other session");

    // a stranger cannot end it, nor learn that it exists
    const stranger = await t.createUser();
    const refused = await t.request({
      method: "DELETE",
      url: `/api/v1/user/me/sessions/${target.id}`,
      token: stranger.token,
    });
    expect(refused.statusCode).toBe(404);
    expect((await me(other)).statusCode).toBe(200);

    const ended = await t.request({
      method: "DELETE",
      url: `/api/v1/user/me/sessions/${target.id}`,
      token: user.token,
    });
    expect(ended.statusCode).toBe(200);
    const after = await me(other);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe("SESSION_REVOKED");
    const renewed = await t.request({
      method: "POST",
      url: "/api/v1/auth/refresh",
      cookies: { [refresh?.name ?? ""]: refresh?.value ?? "" },
    });
    expect(renewed.statusCode).toBe(401);
    // ended already, unknown, or not an id
    const again = await t.request({
      method: "DELETE",
      url: `/api/v1/user/me/sessions/${target.id}`,
      token: user.token,
    });
    expect(again.statusCode).toBe(404);
    const unknown = await t.request({
      method: "DELETE",
      url: "/api/v1/user/me/sessions/00000000-0000-4000-8000-000000000000",
      token: user.token,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.request({
      method: "DELETE",
      url: "/api/v1/user/me/sessions/nope",
      token: user.token,
    });
    expect([400, 422]).toContain(malformed.statusCode);
    // the caller's own session goes on
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await mine(user.token)).json().data).toHaveLength(1);
  });

  it("signing out everywhere else ends every other session of mine, and only mine", async () => {
    const user = await t.createUser();
    const a = await signIn(user.email, FIREFOX_LINUX, "198.51.100.1");
    const b = await signIn(user.email, SAFARI_MAC, "198.51.100.2");
    const stranger = await t.createUser();
    for (const token of [a, b, user.token, stranger.token]) expect((await me(token)).statusCode).toBe(200);
    const res = await t.request({ method: "POST", url: "/api/v1/user/me/sessions/end-others", token: a });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ended: 2 });
    expect((await me(a)).statusCode).toBe(200);
    expect((await me(b)).statusCode).toBe(401);
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await me(stranger.token)).statusCode).toBe(200);
    expect((await mine(a)).json().data).toHaveLength(1);
  });

  it("last seen is written on use, at most once every few minutes", async () => {
    const user = await t.createUser();
    const hourAgo = new Date(Date.now() - 3600_000);
    const setLastSeen = (at: Date) =>
      t.database.db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.userId, user.id));
    const lastSeen = async () =>
      (await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id)))[0]?.lastSeenAt;
    await settled();
    await setLastSeen(hourAgo);
    await me(user.token);
    await settled();
    expect(Date.now() - ((await lastSeen())?.getTime() ?? 0)).toBeLessThan(60_000);
    // within the next five minutes, requests write nothing
    await setLastSeen(hourAgo);
    await me(user.token);
    await mine(user.token);
    await settled();
    expect((await lastSeen())?.getTime()).toBe(hourAgo.getTime());
  });

  it("last seen, on a clock: one write per period, none while the stored time is recent", async () => {
    const user = await t.createUser();
    let now = Date.now() + 3600_000;
    const seen = createLastSeen({ db: t.database.db, everyMs: 300_000, now: () => now });
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    if (!row) throw new Error("no session");
    const read = async () =>
      (await t.database.db.select().from(sessions).where(eq(sessions.id, row.id)))[0]?.lastSeenAt.getTime();
    seen.touch(row.id);
    await seen.settled();
    expect(await read()).toBe(now);
    const first = now;
    now += 240_000;
    seen.touch(row.id);
    await seen.settled();
    expect(await read()).toBe(first);
    now += 120_000;
    seen.touch(row.id);
    await seen.settled();
    expect(await read()).toBe(now);
    // another process that wrote a moment ago: this one's write finds the stored time recent
    const other = createLastSeen({ db: t.database.db, everyMs: 300_000, now: () => now + 1000 });
    other.touch(row.id);
    await other.settled();
    expect(await read()).toBe(now);
  });
});

describe("the mail of a sign-in from a new device", () => {
  const subject = "New sign-in to your Parlons account";
  const alerts = (to: string) => t.mailbox.messages.filter((m) => m.to === to && m.subject === subject);
  const deliver = async () => {
    await settled();
    await outboxWorkerOf(t).runOnce();
  };

  it("is not sent on the first sign-in, nor from a known device; sent once from a new one", async () => {
    const user = await t.createUser({ speak: "EN" }); // its first sign-in
    await deliver();
    expect(alerts(user.email)).toHaveLength(0);
    // the same browser and network again (what createUser's sign-in used)
    await t.login(user.email, PASSWORD);
    await deliver();
    expect(alerts(user.email)).toHaveLength(0);

    await signIn(user.email, FIREFOX_LINUX, "198.51.100.23");
    await deliver();
    expect(alerts(user.email)).toHaveLength(1);
    const mail = alerts(user.email)[0];
    expect(mail?.text).toContain("Device: Firefox, Linux");
    expect(mail?.text).toContain("Approximate address: 198.51.100.x");
    expect(mail?.text).not.toContain("198.51.100.23");
    expect(mail?.text).toContain("http://parlons.test/en/profile#sessions");
    expect(mail?.headers?.["List-Unsubscribe"]).toContain("/api/v1/unsubscribe/");

    // the same device and network (another address of it): known now
    await signIn(user.email, FIREFOX_LINUX, "198.51.100.99");
    await deliver();
    expect(alerts(user.email)).toHaveLength(1);
  });

  it("is sent in the learner's language", async () => {
    const user = await t.createUser({ speak: "FR" });
    await signIn(user.email, SAFARI_MAC, "192.0.2.10");
    await deliver();
    const mail = t.mailbox.last(user.email);
    expect(mail?.subject).toBe("Nouvelle connexion à votre compte Parlons");
    expect(mail?.text).toContain("Appareil : Safari, macOS");
    expect(mail?.text).toContain("http://parlons.test/profile#sessions");
  });

  it("is not sent once the learner turned it off in the mail preferences", async () => {
    const user = await t.createUser({ speak: "EN" });
    const off = await t.request({
      method: "PUT",
      url: "/api/v1/user/me/mail-preferences",
      token: user.token,
      payload: { new_device: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.items).toContainEqual({ kind: "new_device", subscribed: false });
    await signIn(user.email, CHROME_WINDOWS, "192.0.2.99");
    await deliver();
    expect(alerts(user.email)).toHaveLength(0);
  });

  it("a device unseen for more than 90 days is new again", async () => {
    const user = await t.createUser({ speak: "EN" });
    await signIn(user.email, FIREFOX_LINUX, "198.51.100.5");
    await deliver();
    expect(alerts(user.email)).toHaveLength(1);
    // every earlier session opened long ago and over
    await t.database.db.execute(
      sql`update sessions set created_at = now() - interval '100 days', revoked_at = now() - interval '99 days' where user_id = ${user.id}`,
    );
    await signIn(user.email, FIREFOX_LINUX, "198.51.100.5");
    await deliver();
    expect(alerts(user.email)).toHaveLength(2);
  });

  it("a sign-in with a second factor mails once, when the session opens (not at the password step)", async () => {
    const user = await t.createUser({ speak: "EN" });
    const { secret } = (
      await t.request({ method: "POST", url: "/api/v1/user/me/two-factor/totp/setup", token: user.token })
    ).json().data;
    const code = (steps: number) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
    const enable = await t.request({
      method: "POST",
      url: "/api/v1/user/me/two-factor/totp/enable",
      token: user.token,
      payload: { code: code(0) },
    });
    expect(enable.statusCode).toBe(200);
    const first = await t.request({
      method: "POST",
      url: "/api/v1/user/authenticate",
      remoteAddress: "192.0.2.200",
      headers: { "user-agent": SAFARI_MAC },
      payload: { username: user.email, password: PASSWORD },
    });
    const { ticket } = first.json().data.secondFactor;
    await deliver();
    expect(alerts(user.email)).toHaveLength(0);
    const verified = await t.request({
      method: "POST",
      url: "/api/v1/auth/second-factor/verify",
      remoteAddress: "192.0.2.200",
      headers: { "user-agent": SAFARI_MAC },
      payload: { ticket, method: "totp", code: code(1) },
    });
    expect(verified.statusCode).toBe(200);
    await deliver();
    expect(alerts(user.email)).toHaveLength(1);
    expect(alerts(user.email)[0]?.text).toContain("Device: Safari, macOS");
  });
});
