import {
  couponDeleteResponse,
  couponQuoteQuery,
  couponQuoteResponse,
  couponResponse,
  couponsQuery,
  couponsResponse,
  createCouponBody,
  idParams,
  PERMISSIONS,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { validationFailed } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

const errors = errorResponses(404, 409, 422);
const tags = ["billing"];
const base = "/v1/coupons";

/** Discount codes: staff manage them (plans.manage); a learner asks what an offer costs with one. */
export default async function couponRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { coupons, audit, plans } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.plansManage) };
  const target = (id: string) => ({ type: "coupon" as const, id });

  app.get(
    base,
    {
      config: manage,
      schema: {
        tags,
        summary: "Coupons, newest first (staff)",
        querystring: couponsQuery,
        response: { 200: couponsResponse, ...errors },
      },
    },
    async (request) => ({ data: await coupons.list(request.query) }),
  );

  app.post(
    base,
    {
      config: manage,
      schema: {
        tags,
        summary: "Create a coupon (staff)",
        body: createCouponBody,
        response: { 201: couponResponse, ...errors },
      },
    },
    async (request, reply) => {
      const coupon = await coupons.create(request.body);
      await audit.record({
        actor: principalOf(request),
        action: "coupons.create",
        target: target(coupon.id),
        after: coupon,
      });
      return reply.status(201).send({ data: { coupon } });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: "Change a coupon (staff); a used coupon keeps its code and at least its uses",
        params: idParams,
        body: createCouponBody,
        response: { 200: couponResponse, ...errors },
      },
    },
    async (request) => {
      const coupon = await coupons.update(request.params.id, request.body);
      await audit.record({
        actor: principalOf(request),
        action: "coupons.update",
        target: target(coupon.id),
        after: coupon,
      });
      return { data: { coupon } };
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: "Delete a coupon never used; a used one is deactivated (staff)",
        params: idParams,
        response: { 200: couponDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const result = await coupons.remove(request.params.id);
      await audit.record({
        actor: principalOf(request),
        action: "coupons.delete",
        target: target(request.params.id),
        before: result.coupon,
      });
      return { data: result };
    },
  );

  app.get(
    `${base}/quote`,
    {
      config: { access: access.permission(PERMISSIONS.subscribe) },
      schema: {
        tags,
        summary: "What an offer costs with a coupon (checkout)",
        querystring: couponQuoteQuery,
        response: { 200: couponQuoteResponse, ...errors },
      },
    },
    async (request) => {
      const plan = await plans.get(request.query.plan_id).catch(() => {
        throw validationFailed({ plan_id: ["Unknown plan"] });
      });
      const quote = await coupons.quote(request.query.code, plan);
      return {
        data: {
          code: quote.coupon.code,
          list_amount: quote.listAmount,
          discount: quote.discount,
          amount: quote.amount,
          currency: quote.currency,
          duration: quote.coupon.duration,
        },
      };
    },
  );
}
