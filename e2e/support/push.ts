import { type APIRequestContext, type BrowserContext, expect } from "@playwright/test";

/**
 * Makes the learner's study reminder due now: their reminder hour is this hour, in a time zone
 * where at least half an hour of it is left (Kolkata's hours begin at half past UTC's), so that
 * the reminder job's next run falls in it whenever the test starts; nothing is studied today.
 */
export async function reminderDueNow(request: APIRequestContext, token: string): Promise<void> {
  const now = new Date();
  const zone = now.getUTCMinutes() < 30 ? "UTC" : "Asia/Kolkata";
  const hour = Number(
    new Intl.DateTimeFormat("en-GB", { hour: "numeric", hourCycle: "h23", timeZone: zone }).format(now),
  );
  const set = await request.put("/api/v1/habit/settings", {
    headers: { authorization: `Bearer ${token}` },
    data: { time_zone: zone, reminder_hour: hour },
  });
  expect(set.ok(), await set.text()).toBe(true);
}

/**
 * The browser's PushManager hands out the test's subscription (Chromium's own would go to Google's
 * push service), kept across pages as a browser would, until it is unsubscribed: its keys are the
 * test's, so that what the local push service receives can be decrypted.
 */
export async function fakePushManager(
  context: BrowserContext,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<void> {
  await context.addInitScript(
    ({ endpoint, keys }) => {
      const made = () => {
        if (localStorage.getItem("test.push") !== "on") return null;
        return {
          endpoint,
          expirationTime: null,
          options: { userVisibleOnly: true },
          getKey: () => null,
          toJSON: () => ({ endpoint, expirationTime: null, keys }),
          unsubscribe: async () => {
            localStorage.removeItem("test.push");
            return true;
          },
        };
      };
      PushManager.prototype.getSubscription = async () => made() as unknown as PushSubscription;
      PushManager.prototype.subscribe = async () => {
        localStorage.setItem("test.push", "on");
        return made() as unknown as PushSubscription;
      };
    },
    { endpoint: subscription.endpoint, keys: subscription.keys },
  );
}
