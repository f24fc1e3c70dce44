import { fakeBrowserSubscription, startFakePushService } from "../../apps/api/test/fakes/push-service";
import { ownCourse } from "../support/course";
import { expect, test } from "../support/fixtures";
import { fakePushManager, reminderDueNow } from "../support/push";
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

/** The study reminder in the learner's language (the one they speak), opening their dashboard. */
const REMINDERS = [
  {
    lang: "fr",
    speak: "FR",
    prefix: "",
    title: "Quelques minutes de Parlons aujourd'hui ?",
    body: "Vous n'avez pas encore étudié aujourd'hui.",
  },
  {
    lang: "en",
    speak: "EN",
    prefix: "/en",
    title: "A few minutes of Parlons today?",
    body: "You have not studied yet today.",
  },
] as const;

for (const { lang, speak, prefix, title, body } of REMINDERS)
  test(`a learner turns on reminders on the phone, the study reminder arrives by push, one tap stops it (${lang})`, async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const learner = await createLearner(request, "push", speak);
    const browser = fakeBrowserSubscription(`${pushService.origin}/sub/${Date.now()}`);
    await context.grantPermissions(["notifications"], { origin: baseURL });
    await fakePushManager(context, browser);

    await signIn(page, learner);
    await page.goto(`${prefix}/profile`);
    const card = page.getByTestId("push-card");
    await card.scrollIntoViewIfNeeded();
    await card.getByTestId("push-start").click();
    await expect(card.getByTestId("push-on")).toBeVisible();
    await card.screenshot({ path: test.info().outputPath("push-on.png") });

    // the reminder is due now
    const token = await apiToken(request, learner);
    await reminderDueNow(request, token);

    const received = await pushService.next(new URL(browser.endpoint).pathname, 20_000);
    expect(received.headers["content-encoding"]).toBe("aes128gcm");
    const reminder = JSON.parse(browser.decrypt(received.body));
    expect(reminder).toEqual({ title, body, url: `${prefix}/dashboard`, tag: "study-reminder" });

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
      .toEqual([{ title: reminder.title, body: reminder.body, data: { url: `${prefix}/dashboard` } }]);

    // one tap stops it: the server forgets this browser
    await card.getByTestId("push-stop").click();
    await expect(card.getByTestId("push-start")).toBeVisible();
    const status = await request.get("/api/v1/push", { headers: { authorization: `Bearer ${token}` } });
    expect((await status.json()).data.devices).toBe(0);
  });

test("on a phone, the welcome's switch subscribes this browser, and the study reminder reaches it by push", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // a course in a language of its own, so that the welcome offers it
  await ownCourse(request, "Premiers mots push", [{ title: "Hallo", free: true }], { language: "nl" });
  const learner = await createLearner(request, "welcomepush");
  const browser = fakeBrowserSubscription(`${pushService.origin}/sub/welcome-${Date.now()}`);
  await context.grantPermissions(["notifications"], { origin: baseURL });
  await fakePushManager(context, browser);

  await signIn(page, learner);
  await page.goto("/welcome");
  await page.getByTestId("welcome-languages").getByText("néerlandais", { exact: true }).click();
  await page.getByTestId("welcome-next").click();
  await page.getByTestId("welcome-levels").getByText("Je débute").click();
  await page.getByTestId("welcome-next").click();
  await page.getByTestId("welcome-goals").getByText("5 min par jour", { exact: true }).click();
  await page.getByTestId("welcome-next").click();
  await expect(page.getByTestId("welcome-remind")).toBeChecked();
  const push = page.getByTestId("welcome-push");
  await expect(push).toBeInViewport();
  await expect(push).not.toBeChecked();
  await push.click();
  await expect(push).toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId("welcome-next").click();
  await expect(page.getByTestId("welcome-course")).toBeVisible();

  // the server holds this browser's subscription
  const token = await apiToken(request, learner);
  await expect
    .poll(async () => {
      const res = await request.get("/api/v1/push", {
        headers: { authorization: `Bearer ${token}` },
        params: { endpoint: browser.endpoint },
      });
      return (await res.json()).data.subscribed;
    })
    .toBe(true);

  // and the study reminder, once due, arrives there encrypted for this browser
  await reminderDueNow(request, token);
  const received = await pushService.next(new URL(browser.endpoint).pathname, 20_000);
  expect(JSON.parse(browser.decrypt(received.body))).toMatchObject({
    title: "Quelques minutes de Parlons aujourd'hui ?",
    tag: "study-reminder",
  });
});
