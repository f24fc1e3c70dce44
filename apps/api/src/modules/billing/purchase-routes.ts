import {
  idParams,
  PERMISSIONS,
  purchaseResponse,
  purchasesQuery,
  purchasesResponse,
  startPurchaseBody,
  startPurchaseResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { customerPlansOfPolicy, purchasePolicy } from "./policy";

const errors = errorResponses(404, 409, 422, 502);
const tags = ["billing"];
const base = "/v1/purchases";

/** Courses bought once: start, the return page's capture, the demo checkout, the learner's list, staff refunds. */
export default async function purchaseRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { purchases, audit } = app.deps.services;
  const buyerOf = (id: string) => purchases.buyerOf(id);
  const buyerOrStaff = { access: access.owner(purchasePolicy(buyerOf, { staff: true })) };
  const buyerOnly = { access: access.owner(purchasePolicy(buyerOf, { staff: false })) };

  app.post(
    base,
    {
      config: { access: access.permission(PERMISSIONS.subscribe) },
      schema: {
        tags,
        summary: "Buy a course once (an offer of interval once); send the learner to approveUrl",
        body: startPurchaseBody,
        response: { 201: startPurchaseResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await purchases.start(principalOf(request), request.body) }),
  );

  app.get(
    base,
    {
      config: { access: access.owner(customerPlansOfPolicy) },
      schema: {
        tags,
        summary: "The caller's purchases, newest first (staff: ?user_id=)",
        querystring: purchasesQuery,
        response: { 200: purchasesResponse, ...errors },
      },
    },
    async (request) => ({
      data: await purchases.mine(request.query.user_id ?? principalOf(request).id, request.query),
    }),
  );

  app.get(
    `${base}/all`,
    {
      config: { access: access.permission(PERMISSIONS.customerPlansManage) },
      schema: {
        tags,
        summary: "Every learner's purchases, newest first (staff)",
        querystring: purchasesQuery,
        response: { 200: purchasesResponse, ...errors },
      },
    },
    async (request) => ({ data: await purchases.all(request.query) }),
  );

  app.get(
    `${base}/:id`,
    {
      config: buyerOrStaff,
      schema: {
        tags,
        summary: "A purchase",
        params: idParams,
        response: { 200: purchaseResponse, ...errors },
      },
    },
    async (request) => ({ data: { purchase: await purchases.get(request.params.id) } }),
  );

  app.post(
    `${base}/:id/capture`,
    {
      config: buyerOrStaff,
      schema: {
        tags,
        summary: "Re-read the order, capture it when approved (the return page calls this; idempotent)",
        params: idParams,
        response: { 200: purchaseResponse, ...errors },
      },
    },
    async (request) => ({ data: { purchase: await purchases.complete(request.params.id) } }),
  );

  for (const decision of ["approve", "decline"] as const) {
    app.post(
      `${base}/:id/demo/${decision}`,
      {
        config: buyerOnly,
        schema: {
          tags,
          summary: `Demo payment of a purchase: no money moves (${decision})`,
          params: idParams,
          response: { 200: purchaseResponse, ...errors },
        },
      },
      async (request) => ({
        message: "Demo payment: no money moves",
        data: { purchase: await purchases.demoDecide(request.params.id, decision) },
      }),
    );
  }

  app.post(
    `${base}/:id/refund`,
    {
      config: { access: access.permission(PERMISSIONS.customerPlansManage) },
      schema: {
        tags,
        summary:
          "Refund a paid purchase whole (staff): the provider refunds, the courses close, a credit note is issued",
        params: idParams,
        response: { 200: purchaseResponse, ...errors },
      },
    },
    async (request) => {
      const purchase = await purchases.refund(request.params.id);
      await audit.record({
        actor: principalOf(request),
        action: "purchases.refund",
        target: { type: "purchase", id: request.params.id },
        after: purchase,
      });
      return { message: "Purchase refunded", data: { purchase } };
    },
  );
}
