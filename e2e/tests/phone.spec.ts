import type { Page } from "@playwright/test";
import { violations } from "../support/axe";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

/** The learner's app on a phone (issue: one shell that fits a phone). */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** How far the page can scroll sideways (0 when it fits the viewport). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("signed in on a phone: the menu is a drawer, the header holds one line, the content takes the width", async ({
  page,
}) => {
  const learner = await createLearner(page.request, "phone");
  await signIn(page, learner);
  await expect(page.locator("#main")).toBeVisible();

  // no sider beside the content: the content gets (nearly) the whole width
  await expect(page.locator(".app-sider")).toHaveCount(0);
  // (measured once the page has settled: a box is missing while the shell swaps in)
  const box = (selector: string) => page.locator(selector).boundingBox();
  await expect.poll(async () => (await box("#main"))?.width ?? 0).toBeGreaterThanOrEqual(360);

  // the header never wraps: one row, as tall as its buttons
  await expect.poll(async () => (await box(".app-header"))?.height ?? 999).toBeLessThanOrEqual(64);
  for (const id of ["plan-tag", "upgrade-button", "lang-switch", "settings-button", "menu-button"]) {
    await expect(page.getByTestId(id)).toBeInViewport();
  }
  await expect(page.getByTestId("upgrade-button")).toHaveAccessibleName(/./);

  // the menu opens in a drawer from its button, announces its state, and closes on navigation
  const button = page.getByTestId("menu-button");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  const drawer = page.getByTestId("app-menu-drawer");
  await expect(drawer).toBeVisible();
  expect(await violations(page), "open menu drawer").toEqual([]);
  await drawer
    .getByRole("link")
    .filter({ hasText: /Profil/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(drawer).toBeHidden();

  // Escape closes it too, and the keyboard reaches the button (once the new page has taken the
  // focus: it moves to the content a few frames after the navigation, which may come late)
  await expect
    .poll(() =>
      page.evaluate(() => document.getElementById("main")?.contains(document.activeElement) ?? false),
    )
    .toBe(true);
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(drawer).toBeVisible();
  // Escape reaches the drawer once it has slid in and taken the focus (pressed while it is still
  // sliding in, on a busy machine, the key went to the page behind it)
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  await expect.poll(() => drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  // the settings drawer fits the screen
  await page.getByTestId("settings-button").click();
  await expect(page.getByTestId("settings-drawer")).toBeVisible();
  await expect
    .poll(async () => (await page.getByTestId("settings-drawer").boundingBox())?.width ?? 999)
    .toBeLessThanOrEqual(390);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});

// No page scrolls sideways at 390 or 360 px, for each role and language: tests/page-matrix.spec.ts.

test("staff tables on a phone show the identifying columns and actions, not a squeezed grid", async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto("/User");
  const table = page.locator(".ant-table").first();
  await expect(table.getByRole("columnheader", { name: "Utilisateur" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Statut" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Dernière connexion" })).toHaveCount(0);
  // every visible row fits the screen: nothing to scroll sideways inside the table either
  const inner = await page
    .locator(".ant-table-content, .ant-table-body")
    .first()
    .evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(inner).toBeLessThanOrEqual(0);
  // from the tablet width up, every column is back
  await page.setViewportSize({ width: 1280, height: 860 });
  await expect(table.getByRole("columnheader", { name: "Dernière connexion" })).toBeVisible();
});

test("the lesson plays on while the learner browses: mini-player, position saved, back to the lesson", async ({
  page,
}) => {
  test.slow(); // a whole listening visit: play, browse, pause, come back, leave and close
  const learner = await createLearner(page.request, "mini");
  await signIn(page, learner);
  await page.goto("/courses/anglais-pour-debutants");
  await page.getByTestId("lesson-row").first().getByRole("link").click();
  await expect(page.getByTestId("player")).toBeVisible();
  const lessonUrl = page.url();
  // at half speed the demo lesson (80 s) outlasts a slow machine's clicks
  await page.getByRole("heading", { level: 1 }).click();
  for (let i = 0; i < 3; i++) await page.keyboard.press("<"); // 1 → 0.9 → 0.75 → 0.5
  await page.getByTestId("player-play").click();
  const playerAudio = page.locator("[data-testid=player] audio");
  await expect.poll(() => playerAudio.evaluate((el: HTMLAudioElement) => el.currentTime)).toBeGreaterThan(1);
  await expect(page.getByTestId("mini-player")).toHaveCount(0);

  // leave through the menu: the same audio goes on, the mini-player shows the lesson
  await page.getByTestId("menu-button").click();
  await page.getByTestId("app-menu-drawer").getByRole("link").filter({ hasText: "Tableau de bord" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const mini = page.getByTestId("mini-player");
  await expect(mini).toBeVisible();
  await expect(mini).toContainText("Anglais pour débutants");
  const away = page.locator("#audio-host audio");
  const t1 = await away.evaluate((el: HTMLAudioElement) => el.currentTime);
  await expect.poll(() => away.evaluate((el: HTMLAudioElement) => el.currentTime)).toBeGreaterThan(t1 + 0.5);
  expect(await away.evaluate((el: HTMLAudioElement) => el.paused)).toBe(false);
  expect(await away.evaluate((el: HTMLAudioElement) => el.playbackRate)).toBe(0.5);

  // pause from the bar (before the lesson ends): the position is saved
  await expect(page.getByTestId("mini-player-toggle")).toHaveAccessibleName("Pause");
  await page.getByTestId("mini-player-toggle").click();
  await expect(page.getByTestId("mini-player-toggle")).toHaveAccessibleName("Lire");
  const pausedAt = await away.evaluate((el: HTMLAudioElement) => el.currentTime);
  expect(await away.evaluate((el: HTMLAudioElement) => el.paused)).toBe(true);
  expect(await violations(page), "mini-player").toEqual([]);
  const token = await apiToken(page.request, learner);
  // the seeded demo course by its slug (the catalogue's first page holds what other specs created)
  const single = await page.request.get("/api/v1/courses/single/anglais-pour-debutants");
  const courseId = ((await single.json()) as { data: { course: { id: string } } }).data.course.id;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/v1/courses/${courseId}/lessons`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as {
        data: { lessons: { progress: { last_position: number | null } | null }[] };
      };
      return body.data.lessons[0]?.progress?.last_position ?? 0;
    })
    .toBeGreaterThan(pausedAt - 1);

  // back to the lesson: the page takes the audio over where it is, the bar goes
  await page.getByTestId("mini-player-open").click();
  await expect(page).toHaveURL(lessonUrl);
  await expect(page.getByTestId("player")).toBeVisible();
  await expect(page.getByTestId("mini-player")).toHaveCount(0);
  expect(await playerAudio.evaluate((el: HTMLAudioElement) => el.currentTime)).toBeCloseTo(pausedAt, 0);
  // (10 s back, so that it still plays when we leave again)
  await page.getByRole("button", { name: "Reculer de 10 secondes" }).click();
  await page.getByTestId("player-play").click();
  await expect.poll(() => playerAudio.evaluate((el: HTMLAudioElement) => el.paused)).toBe(false);

  // leaving again, then closing the bar stops the lesson
  await page.getByTestId("menu-button").click();
  await page.getByTestId("app-menu-drawer").getByRole("link").filter({ hasText: "Profil" }).first().click();
  await expect(mini).toBeVisible();
  await page.getByTestId("mini-player-close").click();
  await expect(mini).toHaveCount(0);
  expect(await away.evaluate((el: HTMLAudioElement) => el.paused)).toBe(true);
});
