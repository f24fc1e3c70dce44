import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeBrowserSubscription, startFakePushService, vapidClaims } from "../../../test/fakes/push-service";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { loadConfig } from "../../config";
import { mailOutbox } from "../../db/schema/mail";
import { pushSubscriptions } from "../../db/schema/push";

let t: TestContext;
let pushService: Awaited<ReturnType<typeof startFakePushService>>;

beforeAll(async () => {
  pushService = await startFakePushService();
  t = await buildTestApp({ env: { PUSH_SERVICE_HOSTS: "127.0.0.1", ADMIN_EMAIL: "ops@parlons.test" } });
});
afterAll(async () => {
  await t.close();
  await pushService.close();
});

const subscribe = (token: string, subscription: object) =>
  t.request({ method: "POST", url: "/api/v1/push/subscriptions", token, payload: subscription });
const status = async (token: string, endpoint?: string) =>
  (
    await t.request({
      method: "GET",
      url: `/api/v1/push${endpoint ? `?endpoint=${encodeURIComponent(endpoint)}` : ""}`,
      token,
    })
  ).json().data;
/** This hour in UTC: a learner whose reminder hour it is, in UTC, is due now. */
const dueNow = (token: string) =>
  t.request({
    method: "PUT",
    url: "/api/v1/habit/settings",
    token,
    payload: { time_zone: "UTC", reminder_hour: new Date().getUTCHours() },
  });

describe("VAPID keys", () => {
  it("are generated into DATA_DIR at the first start and kept; from the environment they must be a pair", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parlons-vapid-"));
    const first = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x".repeat(40) }).push;
    expect(first.publicKey).toMatch(/^[\w-]{87}$/);
    expect(first.privateKey).toMatch(/^[\w-]{43}$/);
    const file = path.join(dataDir, "vapid-keys.json");
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    });
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x".repeat(40) }).push.publicKey).toBe(
      first.publicKey,
    );

    const other = loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "parlons-vapid-")) }).push;
    const env = { DATA_DIR: dataDir, VAPID_PUBLIC_KEY: first.publicKey, VAPID_PRIVATE_KEY: first.privateKey };
    expect(loadConfig(env).push).toMatchObject({ publicKey: first.publicKey });
    expect(() => loadConfig({ ...env, VAPID_PRIVATE_KEY: other.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_PUBLIC_KEY: first.publicKey })).toThrow(
      /set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/,
    );
    expect(() => loadConfig({ ...env, VAPID_PRIVATE_KEY: "short" })).toThrow(/VAPID_PRIVATE_KEY/);
  });
});

describe("push subscriptions", () => {
  it("a learner subscribes a browser, sees it, and stops it in one call; unknown push services are refused", async () => {
    const learner = await t.createUser();
    const browser = fakeBrowserSubscription(`${pushService.origin}/sub/one`);
    expect((await status(learner.token)).public_key).toBe(t.config.push.publicKey);

    const made = await subscribe(learner.token, browser);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data).toMatchObject({ devices: 1, subscribed: true });
    expect(await status(learner.token, browser.endpoint)).toMatchObject({ devices: 1, subscribed: true });
    // the same browser again: still one
    expect((await subscribe(learner.token, browser)).json().data.devices).toBe(1);

    for (const endpoint of [
      "https://evil.example/push",
      "http://10.0.0.1/push",
      "https://fcm.googleapis.com.evil.example/x",
    ]) {
      const refused = await subscribe(learner.token, { ...browser, endpoint });
      expect(refused.statusCode, endpoint).toBe(422);
      expect(refused.json().errors.endpoint).toBeDefined();
    }

    const stopped = await t.request({
      method: "POST",
      url: "/api/v1/push/unsubscribe",
      token: learner.token,
      payload: { endpoint: browser.endpoint },
    });
    expect(stopped.json().data).toMatchObject({ devices: 0, subscribed: false });
    // someone else's endpoint is not theirs to stop
    const other = await t.createUser();
    await subscribe(other.token, browser);
    await t.request({
      method: "POST",
      url: "/api/v1/push/unsubscribe",
      token: learner.token,
      payload: { endpoint: browser.endpoint },
    });
    expect((await status(other.token)).devices).toBe(1);
  });
});

describe("push reminders", () => {
  it("the study reminder reaches the browser encrypted for it (aes128gcm), signed by the server's VAPID key", async () => {
    const learner = await t.createUser({ speak: "EN" });
    const browser = fakeBrowserSubscription(`${pushService.origin}/sub/study`);
    expect((await subscribe(learner.token, browser)).statusCode).toBe(200);
    expect((await dueNow(learner.token)).statusCode).toBe(200);

    expect(await t.app.deps.services.habit.remindDue()).toBeGreaterThanOrEqual(1);
    const message = await pushService.next("/sub/study");
    expect(message.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(message.headers.ttl)).toBeGreaterThan(0);
    const claims = vapidClaims(String(message.headers.authorization));
    expect(claims).toMatchObject({ aud: pushService.origin, sub: "mailto:ops@parlons.test" });
    expect(claims.key).toBe(t.config.push.publicKey);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    // what only the browser can read
    expect(JSON.parse(browser.decrypt(message.body))).toEqual({
      title: "A few minutes of Parlons today?",
      body: "You have not studied yet today.",
      url: "/en/dashboard",
      tag: "study-reminder",
    });
  });

  it("a learner who stopped the reminder mails still gets the notification", async () => {
    const learner = await t.createUser();
    const browser = fakeBrowserSubscription(`${pushService.origin}/sub/push-only`);
    await subscribe(learner.token, browser);
    await t.request({
      method: "PUT",
      url: "/api/v1/user/me/mail-preferences",
      token: learner.token,
      payload: { study_reminders: false },
    });
    await dueNow(learner.token);
    await t.app.deps.services.habit.remindDue();
    const message = await pushService.next("/sub/push-only");
    expect(JSON.parse(browser.decrypt(message.body))).toMatchObject({
      title: "Quelques minutes de Parlons aujourd'hui ?",
      url: "/dashboard",
    });
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, learner.id));
    expect(mails.map((m) => m.subject)).toEqual([]);
  });

  it("a subscription its push service says is gone (404, 410) is removed; others stay", async () => {
    const learner = await t.createUser();
    const gone = fakeBrowserSubscription(`${pushService.origin}/sub/gone`);
    const missing = fakeBrowserSubscription(`${pushService.origin}/sub/missing`);
    const alive = fakeBrowserSubscription(`${pushService.origin}/sub/alive`);
    for (const b of [gone, missing, alive]) await subscribe(learner.token, b);
    pushService.answer("/sub/gone", 410);
    pushService.answer("/sub/missing", 404);
    expect(await status(learner.token)).toMatchObject({ devices: 3 });

    await dueNow(learner.token);
    await t.app.deps.services.habit.remindDue();
    await pushService.next("/sub/alive");
    await pushService.next("/sub/gone");
    await pushService.next("/sub/missing");
    const left = await t.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, learner.id));
    expect(left).toEqual([{ endpoint: alive.endpoint }]);
  });

  it("the event reminder reaches the booked learner's browser and opens the event's page", async () => {
    const admin = await t.adminToken();
    const startsAt = new Date(Date.now() + 6 * 3600_000);
    const created = await t.request({
      method: "POST",
      url: "/api/v1/events",
      token: admin,
      payload: {
        title_fr: "Café conversation",
        title_en: "Conversation café",
        description_fr: "On parle.",
        description_en: "We talk.",
        kind: "online",
        online_url: "https://meet.example.com/room",
        starts_at: startsAt.toISOString(),
        ends_at: new Date(startsAt.getTime() + 3600_000).toISOString(),
        capacity: 5,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const event = created.json().data.event as { id: string };
    const learner = await t.createUser({ speak: "EN" });
    const browser = fakeBrowserSubscription(`${pushService.origin}/sub/event`);
    await subscribe(learner.token, browser);
    const booked = await t.request({
      method: "POST",
      url: "/api/v1/registrations/booking",
      token: learner.token,
      payload: { event_id: event.id },
    });
    expect(booked.statusCode, booked.body).toBe(201);

    expect(await t.app.deps.services.events.remindDue()).toBe(1);
    const message = await pushService.next("/sub/event");
    const shown = JSON.parse(browser.decrypt(message.body));
    expect(shown).toMatchObject({
      title: "Tomorrow: Conversation café",
      url: `/en/events/${event.id}`,
      tag: `event:${event.id}`,
    });
  });
});
