import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { coupons } from "../../src/db/schema";
import type { TestContext } from "./build";

export type Learner = { id: string; token: string };

/** Coupons, subscription checkouts and their payments and receipts, as a learner and staff see them. */
export function billingHelpers(ctx: () => { t: TestContext; admin: string }) {
  const coupon = async (over: object) => {
    const { t, admin } = ctx();
    const res = await t.request({
      method: "POST",
      url: "/api/v1/coupons",
      token: admin,
      payload: { code: `s-${Math.random().toString(36).slice(2, 8)}`, percent_off: 20, ...over },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.coupon as { id: string; code: string; duration: string };
  };
  /** A plan made by staff; its id. */
  const plan = async (payload: object) => {
    const { t, admin } = ctx();
    const res = await t.request({ method: "POST", url: "/api/v1/plans", token: admin, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.plan.id as string;
  };
  const subscribe = (learner: Learner, payload: object) =>
    ctx().t.request({ method: "POST", url: "/api/v1/customer-plan", token: learner.token, payload });
  const post = (url: string, token: string) =>
    ctx().t.request({ method: "POST", url: `/api/v1/customer-plan${url}`, token });
  const get = (url: string, token: string) =>
    ctx().t.request({ method: "GET", url: `/api/v1/customer-plan${url}`, token });
  /** The learner's payments, oldest first, with their receipts. */
  const paymentsOf = async (learner: Learner) => {
    const res = await get("/payments?pageSize=20", learner.token);
    const list = res.json().data.payments as {
      amount: number;
      paid_at: string;
      receipt: { id: string } | null;
    }[];
    return list.reverse();
  };
  const receipt = async (id: string, token: string) =>
    (await ctx().t.request({ method: "GET", url: `/api/v1/receipts/${id}`, token })).json().data.receipt;
  const uses = async (id: string) =>
    (await ctx().t.database.db.select().from(coupons).where(eq(coupons.id, id)))[0]?.uses;
  return { coupon, plan, subscribe, post, get, paymentsOf, receipt, uses };
}
