import { fakeBrowserSubscription, startFakePushService } from "../../apps/api/test/fakes/push-service";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

/**
 * Reminders as notifications on a phone (issue 24, part 4): the learner turns them on from the
 * profile, the study reminder reaches a push service on this machine encrypted for their browser,
 * the service worker shows it, and one tap stops them. The browser's subscription is the test's
 * (Chromium's own would go to Google's push service): its keys are made here, so that what
 * arrives can be decrypted.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: "allow" });

let pushService: Awaited<ReturnType<typeof startFakePushService>>;
test.beforeAll(async () => {
  pushService = await startFakePushService();
});
test.afterAll(async () => {
  await pushService.close();
});

test("a learner turns on reminders on the phone, the study reminder arrives by push, one tap stops it", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const learner = await createLearner(request, "push");
  const browser = fakeBrowserSubscription(`${pushService.origin}/sub/${Date.now()}`);
  await context.grantPermissions(["notifications"], { origin: baseURL });
  // the browser's PushManager hands out the test's subscription (kept across pages, as a browser would)
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
    { endpoint: browser.endpoint, keys: browser.keys },
  );

  await signIn(page, learner);
  await page.goto("/profile");
  const card = page.getByTestId("push-card");
  await card.scrollIntoViewIfNeeded();
  await card.getByTestId("push-start").click();
  await expect(card.getByTestId("push-on")).toBeVisible();
  await card.screenshot({ path: test.info().outputPath("push-on.png") });

  // the reminder is due now: this hour, nothing studied today (a zone where half an hour of it is left)
  const token = await apiToken(request, learner);
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

  const received = await pushService.next(new URL(browser.endpoint).pathname, 20_000);
  expect(received.headers["content-encoding"]).toBe("aes128gcm");
  const reminder = JSON.parse(browser.decrypt(received.body));
  expect(reminder).toEqual({
    title: "Quelques minutes de Parlons aujourd'hui ?",
    body: "Vous n'avez pas encore étudié aujourd'hui.",
    url: "/dashboard",
    tag: "study-reminder",
  });

  // the service worker shows what the push service delivers (Chromium's DevTools protocol plays the push service)
  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.startsWith(baseURL ?? "") && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin: new URL(baseURL ?? "").origin,
    registrationId: await registered,
    data: JSON.stringify(reminder),
  });
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          data: n.data,
        })),
      ),
    )
    .toEqual([{ title: reminder.title, body: reminder.body, data: { url: "/dashboard" } }]);

  // one tap stops it: the server forgets this browser
  await card.getByTestId("push-stop").click();
  await expect(card.getByTestId("push-start")).toBeVisible();
  const status = await request.get("/api/v1/push", { headers: { authorization: `Bearer ${token}` } });
  expect((await status.json()).data.devices).toBe(0);
});
