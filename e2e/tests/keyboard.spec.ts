import type { Locator, Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { linkFromMail } from "../support/mail";
import { apiToken, createLearner } from "../support/session";

/**
 * The main flows with the keyboard alone (no click, no fill): Tab to reach, Enter or Space to act,
 * typing into the focused field. Each reached control must show a visible focus ring; after a
 * navigation inside the app the focus is on the new page's content and its title is announced.
 */

const DEMO_SLUG = "anglais-pour-debutants";

/** Presses Tab (Shift+Tab when `back`) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60, back = false): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    // the target found anew at each press: a page that renders its content again (the dashboard
    // once its data is in) replaces the element a handle taken before would still point at
    if (await target.evaluate((el) => document.activeElement === el)) {
      // the ring is on the control, or on the wrapper antd draws round a field
      const ring = await target.evaluate((el) => {
        const ringed = (node: Element) => {
          const style = getComputedStyle(node);
          return style.outlineStyle !== "none" || style.boxShadow !== "none";
        };
        const wrapper = el.closest(".ant-input-affix-wrapper, .ant-picker");
        const selector = el.closest(".ant-select")?.querySelector(".ant-select-selector");
        return ringed(el) || (wrapper !== null && ringed(wrapper)) || (selector != null && ringed(selector));
      });
      expect(ring, `${target} shows a focus ring`).toBe(true);
      return;
    }
  }
  throw new Error(`${target} was not reached with ${back ? "Shift+Tab" : "Tab"} in ${max} presses`);
}

/**
 * After a navigation in the app: the focus is in the page's content and the new title was announced.
 * The page's chunk may still be loading on a busy machine (CI runs the PostgreSQL suite beside
 * Playwright): 20 s rather than the default 10.
 */
async function focusFollowed(page: Page): Promise<void> {
  await expect
    .poll(
      () => page.evaluate(() => document.getElementById("main")?.contains(document.activeElement) ?? false),
      { timeout: 20_000 },
    )
    .toBe(true);
  const announcer = page.getByTestId("route-announcer");
  await expect
    .poll(async () => (await announcer.textContent()) === (await page.title()) && (await page.title()) !== "")
    .toBe(true);
}

test.describe.configure({ timeout: 90_000 });

test("by keyboard alone: sign up, sign in, play a lesson, reveal a line's translation, mark it done", async ({
  page,
}) => {
  const email = `keyboard.${Date.now()}@e2e.test`;
  const password = "Clavier-2026!";

  // sign up in the header's dialog: the focus goes into it and comes back to its button
  await page.goto("/");
  await tabTo(page, page.getByTestId("header-signup"));
  await page.keyboard.press("Enter");
  const signup = page.getByRole("dialog", { name: "Créer un compte" });
  await expect(signup).toBeVisible();
  await expect.poll(() => signup.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  await tabTo(page, signup.getByLabel("E-mail"), 10);
  await page.keyboard.type(email);
  await tabTo(page, signup.getByLabel("Mot de passe"), 5);
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("signup-success")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(signup).toBeHidden();
  await expect(page.getByTestId("header-signup")).toBeFocused();

  const link = await linkFromMail(email, /https?:\/\/[^\s"<>]+\/activate\/[\w-]+/);
  await page.goto(new URL(link).pathname);
  await expect(page.getByTestId("activate-success")).toBeVisible();

  // sign in on the login page
  await page.goto("/auth/login");
  const form = page.getByTestId("login-form");
  await tabTo(page, form.getByLabel("E-mail"));
  await page.keyboard.type(email);
  await tabTo(page, form.getByLabel("Mot de passe"), 5);
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);

  // the course, then its first lesson, by links
  await page.goto(`/courses/${DEMO_SLUG}`);
  // signed in, the course page opens in the app's shell once the session is restored: tab from there
  await expect(page.getByTestId("settings-button")).toBeVisible();
  await tabTo(page, page.getByTestId("lesson-row").nth(0).getByRole("link"));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("player")).toBeVisible();
  await focusFollowed(page);

  // play: the control says what it does and the audio advances
  const play = page.getByTestId("player-play");
  await tabTo(page, play);
  await expect(play).toHaveAccessibleName(/./);
  await page.keyboard.press("Enter");
  await expect
    .poll(
      () =>
        page
          .locator("audio")
          .first()
          .evaluate((el: HTMLAudioElement) => el.currentTime),
      {
        timeout: 15_000,
      },
    )
    .toBeGreaterThan(0.5);

  // a transcript line: Enter reveals its translation
  const anna = page.getByTestId("transcript-line").filter({ hasText: "My name is Anna." });
  await tabTo(page, anna.getByRole("button", { name: /My name is Anna\./ }));
  await page.keyboard.press("Enter");
  await expect(anna.getByTestId("transcript-translation")).toHaveText("Je m'appelle Anna.");

  // mark it done
  const done = page.getByTestId("mark-done");
  await tabTo(page, done, 80);
  await page.keyboard.press("Enter");
  await expect(done).toHaveAttribute("data-done", "true");
});

test("by keyboard alone: a demo checkout, then booking a place at an event", async ({ page, request }) => {
  const admin = await apiToken(request, ADMIN);
  const plans = await request.get("/api/v1/plans/active");
  const plan = (
    (await plans.json()) as { data: { plans: { id: string; premium: boolean; interval: string }[] } }
  ).data.plans.find((p) => p.premium && p.interval !== "once");
  expect(plan, "the seeded premium plan is on sale").toBeDefined();
  const start = new Date(Date.now() + 4 * 24 * 3600_000);
  const title = `Atelier clavier ${Date.now()}`;
  const event = await request.post("/api/v1/events", {
    headers: { authorization: `Bearer ${admin}` },
    data: {
      title_fr: title,
      title_en: `Keyboard workshop ${Date.now()}`,
      description_fr: "On s'entraîne au clavier.",
      kind: "online",
      online_url: "https://meet.example.com/keyboard",
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 3600_000).toISOString(),
      capacity: 5,
    },
  });
  expect(event.status(), await event.text()).toBe(201);

  const learner = await createLearner(request, "keyboard");
  await page.goto("/auth/login");
  const form = page.getByTestId("login-form");
  await tabTo(page, form.getByLabel("E-mail"));
  await page.keyboard.type(learner.email);
  await tabTo(page, form.getByLabel("Mot de passe"), 5);
  await page.keyboard.type(learner.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
  await focusFollowed(page);

  // pricing → choose the plan → the demo checkout → approve (the header is before the content)
  await tabTo(page, page.getByTestId("upgrade-button"), 60, true);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/pricing$/);
  await focusFollowed(page);
  const card = page.locator(`[data-testid="pricing-plan"][data-plan-id="${plan?.id}"]`);
  await tabTo(page, card.getByTestId("choose-plan"));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("demo-checkout")).toBeVisible();
  await tabTo(page, page.getByTestId("demo-approve"));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("checkout-success")).toBeVisible();

  // the events page → book one place in the dialog → confirmed
  await page.goto("/events");
  const eventCard = page.getByTestId("event-card").filter({ hasText: title });
  await tabTo(page, eventCard.getByTestId("event-book"), 120);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await tabTo(page, dialog.getByTestId("booking-confirm"), 20);
  await page.keyboard.press("Enter");
  await expect(page.locator(".ant-message")).toContainText("Réservation confirmée : 1 place.");
  await expect(eventCard.getByTestId("my-booking")).toContainText("Vous avez réservé 1 place.");
});
