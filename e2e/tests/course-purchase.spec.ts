import { readFileSync } from "node:fs";
import { ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test("on a phone: a course bought once with a coupon (demo checkout) opens its lessons; the invoice shows the discount, the country and the VAT mention, and downloads", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const course = await ownCourse(request, "Bought once", [
    { title: "Free start", free: true },
    { title: "Paid part", free: false },
  ]);
  const headers = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const offer = await request.post("/api/v1/plans", {
    headers,
    data: {
      name: `For life ${Date.now()}`,
      name_fr: `À vie ${Date.now()}`,
      amount: 4900,
      interval: "once",
      scope: "courses",
      course_ids: [course.courseId],
    },
  });
  expect(offer.status(), await offer.text()).toBe(201);
  const offerId = (await offer.json()).data.plan.id as string;
  const code = `E2E-${Date.now().toString(36)}`.toUpperCase();
  const coupon = await request.post("/api/v1/coupons", {
    headers,
    data: { code, percent_off: 20, plan_ids: [offerId], max_uses: 5 },
  });
  expect(coupon.status(), await coupon.text()).toBe(201);

  await signIn(page, await createLearner(request, "buyer"));
  await page.goto(`/courses/${course.courseId}`);
  const paid = page.getByTestId("lesson-row").filter({ hasText: "Paid part" });
  await expect(paid).toHaveAttribute("data-locked", "true");
  await page.locator(`[data-testid="course-offer"][data-plan-id="${offerId}"]`).getByRole("link").click();

  await page.getByTestId("coupon-input").fill(code.toLowerCase());
  await page.getByTestId("coupon-apply").click();
  await expect(page.getByTestId("coupon-applied")).toContainText(/39,20\s€/);
  // the country of residence, for the invoice's VAT
  await page.getByRole("combobox", { name: "Pays de résidence" }).fill("Belg");
  await page.keyboard.press("Enter");
  await page.getByTestId("checkout-demo").click();
  await page.getByTestId("demo-approve").click();
  await expect(page.getByTestId("purchase-success")).toBeVisible();

  await page.getByTestId("purchase-receipt").click();
  await expect(page.getByTestId("receipt-discount")).toContainText(code);
  await expect(page.getByTestId("receipt-total")).toHaveText(/39,20\s€/);
  await expect(page.getByTestId("receipt")).toContainText("Pays : Belgique");
  // the site's default VAT scheme: the French franchise
  await expect(page.getByTestId("receipt-vat-mention")).toHaveText("TVA non applicable, art. 293 B du CGI");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("receipt-pdf").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^R-\d{4}-\d{6}\.pdf$/);
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");

  await page.goto(`/courses/${course.courseId}`);
  await expect(paid).toHaveAttribute("data-locked", "false");
  await expect(page.getByTestId("course-offers")).toBeHidden();
  await paid.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/courses/${course.courseId}/lessons/${course.lessonIds[1]}`));
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0);
});
