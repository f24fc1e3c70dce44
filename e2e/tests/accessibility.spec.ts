import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";

// Every page × language (fr, en, es) × size × role is checked by tests/page-matrix.spec.ts; dialogs here.
for (const home of ["/", "/en", "/es"]) {
  test(`the sign-up dialog has no serious accessibility violations (${home})`, async ({ page }) => {
    await page.goto(home);
    await page.getByTestId("header-signup").click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(await violations(page), `signup modal at ${home}`).toEqual([]);
  });
}

// A reader whose system asks for reduced motion: antd's dialogs open without their zoom (and
// drawers, menus and toasts without theirs); with motion allowed, the same dialog animates.
test("reduced motion: the sign-up dialog opens without animating, and animates otherwise", async ({
  page,
}) => {
  // counted from the click on, by the animations' own start events: a zoom of 0.3 s may be over
  // before a busy machine gets to read document.getAnimations()
  const animationsAsItOpens = async () => {
    await page.goto("/");
    await page.evaluate(() => {
      const seen = { n: 0 };
      (window as unknown as { __modalAnimations: typeof seen }).__modalAnimations = seen;
      const count = (event: Event) => {
        if ((event.target as Element | null)?.closest?.(".ant-modal-root, .ant-modal-wrap, .ant-modal"))
          seen.n += 1;
      };
      document.addEventListener("animationstart", count, true);
      document.addEventListener("transitionrun", count, true);
    });
    await page.getByTestId("header-signup").click();
    await expect(page.getByRole("dialog")).toBeVisible();
    return page.evaluate(
      () =>
        (window as unknown as { __modalAnimations: { n: number } }).__modalAnimations.n +
        document
          .getAnimations()
          .filter((a) =>
            (a.effect as KeyframeEffect | null)?.target?.closest(
              ".ant-modal-root, .ant-modal-wrap, .ant-modal",
            ),
          ).length,
    );
  };
  await page.emulateMedia({ reducedMotion: "no-preference" });
  expect(await animationsAsItOpens()).toBeGreaterThan(0);
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await animationsAsItOpens()).toBe(0);
});

// The lesson page by keyboard (Tab to the player, focus ring, Enter plays): tests/keyboard.spec.ts.

// Text at 200 % (WCAG 1.4.4): the styles size text in px, so a browser reaches 200 % by zooming,
// which lays a 1280×800 window out as 640×400 CSS px; the root font size is doubled as well, for
// any text sized in rem or em. Nothing may need sideways scrolling and the main actions stay usable.
test("text at 200 %: the home page and the sign-up dialog keep their actions, without sideways scrolling", async ({
  page,
}) => {
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto("/");
  await page.addStyleTag({ content: "html { font-size: 200% !important; }" });
  const sideways = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await sideways(), "home page").toBeLessThanOrEqual(0);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  await page.getByTestId("header-signup").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const submit = dialog.getByTestId("signup-submit");
  // scrolled to once the dialog has stopped growing in (a scroll made during its zoom can leave
  // the button out of view when the zoom ends)
  await expect(async () => {
    await submit.scrollIntoViewIfNeeded();
    await expect(submit).toBeInViewport({ timeout: 1000 });
  }).toPass();
  const box = await dialog.getByTestId("signup-form").boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 640, "the form fits the width").toBe(true);
  expect(await sideways(), "sign-up dialog").toBeLessThanOrEqual(0);
});
