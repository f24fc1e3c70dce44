import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, createOnceOffer } from "../../../test/helpers/learning";
import { payments, purchases, receipts } from "../../db/schema";

// Courses bought once through the demo checkout: the purchase opens its course for life, joins
// the plan's courses in the one entitlement rule, is recorded once whatever replays it, and a
// staff refund closes it with a credit note.
let t: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof courseWithLessons>>;
let b: Awaited<ReturnType<typeof courseWithLessons>>;
let offerA: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  a = await courseWithLessons(t, admin);
  b = await courseWithLessons(t, admin);
  offerA = await createOffer([a.course.id]);
});
afterAll(() => t.close());

const createOffer = (courseIds: string[], over: Record<string, unknown> = {}) =>
  createOnceOffer(t, admin, courseIds, over);

const buy = (token: string, payload: object) =>
  t.request({ method: "POST", url: "/api/v1/purchases", token, payload });
const post = (url: string, token: string) =>
  t.request({ method: "POST", url: `/api/v1/purchases${url}`, token });

async function bought(planId = offerA) {
  const learner = await t.createUser();
  const started = await buy(learner.token, { plan_id: planId });
  expect(started.statusCode, started.body).toBe(201);
  const { purchase, approveUrl } = started.json().data;
  expect(purchase).toMatchObject({ status: "PENDING", amount: 4900, receipt: null });
  expect(approveUrl).toBe(`/billing/purchase-payment?demo=${purchase.id}`);
  const approved = await post(`/${purchase.id}/demo/approve`, learner.token);
  expect(approved.statusCode, approved.body).toBe(200);
  return { learner, purchase: approved.json().data.purchase };
}

async function locked(courseId: string, lessonId: string, token: string) {
  const res = await t.request({ method: "GET", url: `/api/v1/courses/${courseId}/lessons`, token });
  expect(res.statusCode).toBe(200);
  return res.json().data.lessons.find((l: { id: string }) => l.id === lessonId).locked as boolean;
}

async function accessOf(userId: string) {
  const principal = await t.app.deps.services.users.loadPrincipal(userId);
  if (!principal) throw new Error("no principal");
  return t.app.deps.services.entitlement.accessOf(principal);
}

describe("buying a course once (demo checkout)", () => {
  it("opens the course bought, and no other, with a receipt for the course", async () => {
    const learner = await t.createUser();
    expect(await locked(a.course.id, a.paid.id, learner.token)).toBe(true);
    const started = await buy(learner.token, { plan_id: offerA, locale: "en" });
    const id = started.json().data.purchase.id;
    expect(started.json().data.approveUrl).toBe(`/en/billing/purchase-payment?demo=${id}`);
    // warm the kept access: the payment must drop it
    expect(await locked(a.course.id, a.paid.id, learner.token)).toBe(true);
    const paid = (await post(`/${id}/demo/approve`, learner.token)).json().data.purchase;
    expect(paid).toMatchObject({ status: "PAID", course_ids: [a.course.id], amount: 4900 });
    expect(paid.receipt.number).toMatch(/^R-\d{4}-\d{6}$/);

    expect(await locked(a.course.id, a.paid.id, learner.token)).toBe(false);
    expect(await locked(b.course.id, b.paid.id, learner.token)).toBe(true);
    expect(await accessOf(learner.id)).toBe(`courses:${a.course.id}`);

    const receipt = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${paid.receipt.id}`,
      token: learner.token,
    });
    expect(receipt.json().data.receipt).toMatchObject({
      kind: "receipt",
      item: "course",
      amount: 4900,
      status: "PAID",
    });
    const history = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/payments",
      token: learner.token,
    });
    expect(history.json().data.payments[0]).toMatchObject({
      purchase_id: id,
      customer_plan_id: null,
      status: "PAID",
    });
    const mine = await t.request({ method: "GET", url: "/api/v1/purchases", token: learner.token });
    expect(mine.json().data.purchases.map((p: { id: string }) => p.id)).toEqual([id]);
  });

  it("joins a plan of another course: the access is the union", async () => {
    const planB = (
      await t.request({
        method: "POST",
        url: "/api/v1/plans",
        token: admin,
        payload: {
          name: "B",
          name_fr: "B",
          amount: 900,
          interval: "month",
          scope: "courses",
          course_ids: [b.course.id],
        },
      })
    ).json().data.plan.id;
    const { learner } = await bought();
    const sub = await t.request({
      method: "POST",
      url: "/api/v1/customer-plan",
      token: learner.token,
      payload: { plan_id: planB },
    });
    await t.request({
      method: "POST",
      url: `/api/v1/customer-plan/demo/${sub.json().data.customerPlan.id}/approve`,
      token: learner.token,
    });
    expect(await accessOf(learner.id)).toBe(`courses:${[a.course.id, b.course.id].sort().join(",")}`);
    expect(await locked(b.course.id, b.paid.id, learner.token)).toBe(false);
    expect(await locked(a.course.id, a.paid.id, learner.token)).toBe(false);
  });

  it("records one payment whatever replays the capture (return page, second tab, approve again)", async () => {
    const { learner, purchase } = await bought();
    const replays = await Promise.all(
      Array.from({ length: 8 }, () => post(`/${purchase.id}/capture`, learner.token)),
    );
    expect(replays.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(replays.every((r) => r.json().data.purchase.status === "PAID")).toBe(true);
    const again = await post(`/${purchase.id}/demo/approve`, learner.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("PURCHASE_CLOSED");
    const rows = await t.database.db.select().from(payments).where(eq(payments.purchaseId, purchase.id));
    expect(rows).toHaveLength(1);
    const docs = await t.database.db
      .select()
      .from(receipts)
      .where(eq(receipts.paymentId, rows[0]?.id ?? ""));
    expect(docs).toHaveLength(1);
  });

  it("captures an order approved once, even when captures race", async () => {
    const learner = await t.createUser();
    const started = (await buy(learner.token, { plan_id: offerA })).json().data.purchase;
    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, started.id));
    await t.app.deps.providers.demo?.approveOrder(row?.providerOrderId ?? "", started.id, {
      amount: 4900,
      currency: "EUR",
    });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post(`/${started.id}/capture`, learner.token)),
    );
    expect(results.map((r) => r.json().data.purchase.status)).toEqual(Array(6).fill("PAID"));
    expect(
      await t.database.db.select().from(payments).where(eq(payments.purchaseId, started.id)),
    ).toHaveLength(1);
  });

  it("a declined demo checkout is closed and opens nothing", async () => {
    const learner = await t.createUser();
    const started = (await buy(learner.token, { plan_id: offerA })).json().data.purchase;
    const declined = await post(`/${started.id}/demo/decline`, learner.token);
    expect(declined.json().data.purchase.status).toBe("CANCELLED");
    expect(await locked(a.course.id, a.paid.id, learner.token)).toBe(true);
  });

  it("refuses bad input with clear codes", async () => {
    const learner = await t.createUser();
    const unknown = await buy(learner.token, { plan_id: "00000000-0000-4000-8000-000000000000" });
    expect([unknown.statusCode, unknown.json().code]).toEqual([422, "VALIDATION_FAILED"]);
    expect((await buy(learner.token, { plan_id: "nope" })).statusCode).toBe(422);
    expect((await buy(learner.token, { plan_id: offerA, extra: 1 })).statusCode).toBe(422);
    const monthly = (
      await t.request({
        method: "POST",
        url: "/api/v1/plans",
        token: admin,
        payload: { name: "M", name_fr: "M", amount: 900 },
      })
    ).json().data.plan.id;
    const subscription = await buy(learner.token, { plan_id: monthly });
    expect([subscription.statusCode, subscription.json().code]).toEqual([422, "NOT_FOR_SALE"]);
    const subscribeOnce = await t.request({
      method: "POST",
      url: "/api/v1/customer-plan",
      token: learner.token,
      payload: { plan_id: offerA },
    });
    expect([subscribeOnce.statusCode, subscribeOnce.json().code]).toEqual([422, "NOT_FOR_SALE"]);
    const onceForAll = await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: { name: "All", name_fr: "Tout", amount: 900, interval: "once" },
    });
    expect(onceForAll.statusCode).toBe(422);

    const { learner: owner, purchase } = await bought();
    const twice = await buy(owner.token, { plan_id: offerA });
    expect([twice.statusCode, twice.json().code]).toEqual([409, "ALREADY_OWNED"]);
    // another learner: the purchase does not exist for them
    expect(
      (await t.request({ method: "GET", url: `/api/v1/purchases/${purchase.id}`, token: learner.token }))
        .statusCode,
    ).toBe(404);
    expect((await post(`/${purchase.id}/refund`, owner.token)).statusCode).toBe(403);
    const pending = (await buy(learner.token, { plan_id: offerA })).json().data.purchase;
    const early = await post(`/${pending.id}/refund`, admin);
    expect([early.statusCode, early.json().code]).toEqual([409, "NOT_REFUNDABLE"]);
  });
});

describe("staff refund", () => {
  it("closes the course again and issues a credit note; a second refund changes nothing", async () => {
    const { learner, purchase } = await bought();
    expect(await locked(a.course.id, a.paid.id, learner.token)).toBe(false);
    const refunded = await post(`/${purchase.id}/refund`, admin);
    expect(refunded.statusCode, refunded.body).toBe(200);
    const after = refunded.json().data.purchase;
    expect(after.status).toBe("REFUNDED");
    expect(after.credit_note.number).not.toBe(after.receipt.number);
    expect(await locked(a.course.id, a.paid.id, learner.token)).toBe(true);
    expect(await accessOf(learner.id)).toBe("free");

    const note = (
      await t.request({
        method: "GET",
        url: `/api/v1/receipts/${after.credit_note.id}`,
        token: learner.token,
      })
    ).json().data.receipt;
    expect(note).toMatchObject({
      kind: "credit_note",
      status: "REFUNDED",
      item: "course",
      amount: 4900,
      credit_of: { id: after.receipt.id, number: after.receipt.number },
    });
    const pdf = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${after.credit_note.id}/pdf`,
      token: learner.token,
    });
    expect(pdf.headers["content-type"]).toBe("application/pdf");

    const again = await post(`/${purchase.id}/refund`, admin);
    expect(again.json().data.purchase.credit_note.id).toBe(after.credit_note.id);
    const history = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/payments",
      token: learner.token,
    });
    expect(history.json().data.payments[0]).toMatchObject({
      status: "REFUNDED",
      credit_note: { id: after.credit_note.id },
    });
    const all = await t.request({
      method: "GET",
      url: "/api/v1/purchases/all?status=REFUNDED",
      token: admin,
    });
    expect(all.json().data.purchases.map((p: { id: string }) => p.id)).toContain(purchase.id);
    // bought again after the refund: open again
    const rebuy = await buy(learner.token, { plan_id: offerA });
    expect(rebuy.statusCode).toBe(201);
  });
});
