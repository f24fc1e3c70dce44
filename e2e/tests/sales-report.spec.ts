import { readFileSync } from "node:fs";
import { violations } from "../support/axe";
import { ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

test("staff read the sales of a period: a course sold with a coupon by offer and course, its coupon use, the CSV, and an empty period", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // (its title shows on /pricing among what the offer opens: not a text of any UI catalogue, which
  // language-mixing.spec.ts would count as another language's)
  const course = await ownCourse(request, "Témoin ventes", [{ title: "Only lesson", free: false }]);
  const headers = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const stamp = Date.now().toString(36);
  const offer = await request.post("/api/v1/plans", {
    headers,
    data: {
      name: `Report offer ${stamp}`,
      name_fr: `Offre rapport ${stamp}`,
      amount: 2500,
      interval: "once",
      scope: "courses",
      course_ids: [course.courseId],
    },
  });
  expect(offer.status(), await offer.text()).toBe(201);
  const offerId = (await offer.json()).data.plan.id as string;
  const code = `REPORT-${stamp}`.toUpperCase();
  const coupon = await request.post("/api/v1/coupons", {
    headers,
    data: { code, amount_off: 500, currency: "EUR", plan_ids: [offerId] },
  });
  expect(coupon.status(), await coupon.text()).toBe(201);
  // a learner buys the offer with the coupon (demo checkout): 20,00 €
  const learner = await createLearner(request, "report-buyer");
  const buyer = { authorization: `Bearer ${await apiToken(request, learner)}` };
  const started = await request.post("/api/v1/purchases", {
    headers: buyer,
    data: { plan_id: offerId, coupon: code },
  });
  expect(started.status(), await started.text()).toBe(201);
  const purchaseId = (await started.json()).data.purchase.id as string;
  const approved = await request.post(`/api/v1/purchases/${purchaseId}/demo/approve`, { headers: buyer });
  expect(approved.status(), await approved.text()).toBe(200);

  await signIn(page, ADMIN);
  await page.goto("/sales");
  await page.getByTestId("sales-report-link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Rapport des ventes" })).toBeVisible();
  const byPlan = page
    .getByTestId("sales-by-plan")
    .getByRole("row")
    .filter({ hasText: `Offre rapport ${stamp}` });
  await expect(byPlan).toContainText(/20,00\s€/);
  const byCourse = page.getByTestId("sales-by-course").getByRole("row").filter({ hasText: course.title });
  await expect(byCourse).toContainText(/20,00\s€/);
  await expect(page.getByTestId("sales-coupons").getByRole("row").filter({ hasText: code })).toContainText(
    /5,00\s€/,
  );
  expect(await violations(page)).toEqual([]);

  // the offers' table as CSV: the offer's line with its payment
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("sales-csv-plans").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^parlons-sales-plans-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe("offer,item,payments,refunds,currency,gross,refunded,net");
  expect(csv).toContain(`Report offer ${stamp},course,1,0,EUR,20.00,0.00,20.00`);

  // by keyboard: a period long past, where nothing was sold
  const from = page.getByTestId("sales-from");
  await from.focus();
  await from.fill("2001-01-01");
  const to = page.getByTestId("sales-to");
  await to.focus();
  await to.fill("2001-01-31");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("sales-report-empty")).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
