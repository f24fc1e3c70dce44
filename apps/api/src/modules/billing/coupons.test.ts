import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, createOnceOffer } from "../../../test/helpers/learning";
import { couponRedemptions, coupons, purchases } from "../../db/schema";

// Coupons on courses bought once (demo checkout): staff manage them, a learner enters one at
// checkout and the receipt shows it, and a coupon's last use goes to exactly one of many learners
// paying at once.
let t: TestContext;
let admin: string;
let offer: string;
let other: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  const a = await courseWithLessons(t, admin);
  offer = await createOffer(a.course.id, 5000);
  other = await createOffer(a.course.id, 3000);
});
afterAll(() => t.close());

const createOffer = (courseId: string, amount: number) =>
  createOnceOffer(t, admin, [courseId], { name: "Life", name_fr: "À vie", amount });

const couponBody = (over: object = {}) => ({
  code: `c-${Math.random().toString(36).slice(2, 8)}`,
  percent_off: 20,
  ...over,
});
async function coupon(over: object = {}) {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/coupons",
    token: admin,
    payload: couponBody(over),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.coupon as { id: string; code: string };
}
const buy = (token: string, payload: object) =>
  t.request({ method: "POST", url: "/api/v1/purchases", token, payload });

describe("coupons: staff", () => {
  it("creates, lists, changes and deletes coupons; refuses bad ones with codes", async () => {
    const made = await coupon({
      code: "spring-24",
      plan_ids: [offer],
      max_uses: 5,
      ends_at: "2099-01-01T00:00:00Z",
    });
    expect(made).toMatchObject({
      code: "SPRING-24",
      percent_off: 20,
      plan_ids: [offer],
      max_uses: 5,
      uses: 0,
    });
    const again = await t.request({
      method: "POST",
      url: "/api/v1/coupons",
      token: admin,
      payload: couponBody({ code: "Spring-24" }),
    });
    expect([again.statusCode, again.json().code]).toEqual([409, "COUPON_CODE_TAKEN"]);
    for (const bad of [
      { percent_off: 10, amount_off: 500, currency: "EUR" },
      { percent_off: null, amount_off: 500 },
      { percent_off: 101 },
      { code: "a b" },
      { plan_ids: ["00000000-0000-4000-8000-000000000000"] },
    ]) {
      const res = await t.request({
        method: "POST",
        url: "/api/v1/coupons",
        token: admin,
        payload: couponBody(bad),
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
    }
    const learner = await t.createUser();
    expect(
      (
        await t.request({
          method: "POST",
          url: "/api/v1/coupons",
          token: learner.token,
          payload: couponBody(),
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: "GET", url: "/api/v1/coupons", token: learner.token })).statusCode,
    ).toBe(403);
    const listed = await t.request({ method: "GET", url: "/api/v1/coupons", token: admin });
    expect(listed.json().data.coupons.map((c: { id: string }) => c.id)).toContain(made.id);
    const changed = await t.request({
      method: "PUT",
      url: `/api/v1/coupons/${made.id}`,
      token: admin,
      payload: { code: "SPRING-24", percent_off: null, amount_off: 700, currency: "EUR", max_uses: 2 },
    });
    expect(changed.json().data.coupon).toMatchObject({
      amount_off: 700,
      percent_off: null,
      plan_ids: [],
      max_uses: 2,
    });
    const removed = await t.request({ method: "DELETE", url: `/api/v1/coupons/${made.id}`, token: admin });
    expect(removed.json().data.deleted).toBe(true);
  });
});

describe("coupons at checkout", () => {
  it("quotes, charges the discounted price, shows the code on the receipt, takes one use whatever replays it", async () => {
    const code = (await coupon({ percent_off: 20, plan_ids: [offer], max_uses: 10 })).code;
    const learner = await t.createUser();
    const quote = await t.request({
      method: "GET",
      url: `/api/v1/coupons/quote?code=${code.toLowerCase()}&plan_id=${offer}`,
      token: learner.token,
    });
    expect(quote.json().data).toMatchObject({
      code,
      list_amount: 5000,
      discount: 1000,
      amount: 4000,
      currency: "EUR",
    });
    const started = await buy(learner.token, { plan_id: offer, coupon: code.toLowerCase() });
    expect(started.json().data.purchase).toMatchObject({
      list_amount: 5000,
      amount: 4000,
      coupon_code: code,
    });
    const id = started.json().data.purchase.id;
    const paid = await t.request({
      method: "POST",
      url: `/api/v1/purchases/${id}/demo/approve`,
      token: learner.token,
    });
    expect(paid.json().data.purchase.status).toBe("PAID");
    await Promise.all(
      [1, 2, 3].map(() =>
        t.request({ method: "POST", url: `/api/v1/purchases/${id}/capture`, token: learner.token }),
      ),
    );
    const receipt = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${paid.json().data.purchase.receipt.id}`,
      token: learner.token,
    });
    expect(receipt.json().data.receipt).toMatchObject({ amount: 4000, list_amount: 5000, coupon_code: code });
    const [row] = await t.database.db.select().from(coupons).where(eq(coupons.code, code));
    expect(row?.uses).toBe(1);
  });

  it("refuses unknown, ended, used-up coupons and coupons for other offers, with codes", async () => {
    const learner = await t.createUser();
    const refused = async (payload: object) => {
      const res = await buy(learner.token, { plan_id: offer, ...payload });
      return [res.statusCode, res.json().code];
    };
    expect(await refused({ coupon: "NOPE-NOPE" })).toEqual([422, "COUPON_INVALID"]);
    expect(await refused({ coupon: (await coupon({ active: false })).code })).toEqual([
      422,
      "COUPON_INVALID",
    ]);
    expect(await refused({ coupon: (await coupon({ ends_at: "2020-01-01T00:00:00Z" })).code })).toEqual([
      422,
      "COUPON_EXPIRED",
    ]);
    expect(await refused({ coupon: (await coupon({ plan_ids: [other] })).code })).toEqual([
      422,
      "COUPON_NOT_APPLICABLE",
    ]);
    expect(await refused({ coupon: (await coupon({ percent_off: 100 })).code })).toEqual([
      422,
      "COUPON_NOT_APPLICABLE",
    ]);
    expect(
      await refused({ coupon: (await coupon({ percent_off: null, amount_off: 100, currency: "USD" })).code }),
    ).toEqual([422, "COUPON_NOT_APPLICABLE"]);
    const full = await coupon({ max_uses: 1 });
    await t.database.db.update(coupons).set({ uses: 1 }).where(eq(coupons.id, full.id));
    expect(await refused({ coupon: full.code })).toEqual([409, "COUPON_USED_UP"]);
  });

  it("a coupon's last use, redeemed by 20 learners at once: exactly one wins", async () => {
    const last = await coupon({ max_uses: 3 });
    await t.database.db.update(coupons).set({ uses: 2 }).where(eq(coupons.id, last.id));
    const demo = t.app.deps.providers.demo;
    if (!demo) throw new Error("no demo provider");
    const buyers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const learner = await t.createUser();
        const started = (await buy(learner.token, { plan_id: offer, coupon: last.code })).json().data
          .purchase;
        const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, started.id));
        await demo.approveOrder(row?.providerOrderId ?? "", started.id, { amount: 4000, currency: "EUR" });
        return { learner, id: started.id as string };
      }),
    );
    const results = await Promise.all(
      buyers.map(({ learner, id }) =>
        t.request({ method: "POST", url: `/api/v1/purchases/${id}/capture`, token: learner.token }),
      ),
    );
    const won = results.filter((r) => r.statusCode === 200 && r.json().data.purchase.status === "PAID");
    const lost = results.filter((r) => r.statusCode === 409 && r.json().code === "COUPON_USED_UP");
    expect([won.length, lost.length]).toEqual([1, 19]);
    const [row] = await t.database.db.select().from(coupons).where(eq(coupons.id, last.id));
    expect(row?.uses).toBe(3);
    expect(
      await t.database.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, last.id)),
    ).toHaveLength(1);
    // the others closed uncaptured: no money was taken
    const statuses = await Promise.all(
      buyers.map(
        async ({ id }) =>
          (await t.database.db.select().from(purchases).where(eq(purchases.id, id)))[0]?.status,
      ),
    );
    expect(statuses.filter((s) => s === "CANCELLED")).toHaveLength(19);
  });
});
