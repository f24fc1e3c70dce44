import {
  billingProvidersResponse,
  customerPlanRefBody,
  customerPlanResponse,
  customerPlanUserQuery,
  errorResponse,
  idParams,
  lastPaymentResponse,
  PERMISSIONS,
  paymentsQuery,
  paymentsResponse,
  planCheckResponse,
  startSubscriptionBody,
  startSubscriptionResponse,
  validProPlanResponse,
  webhookAckResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, badRequest } from "../../lib/errors";
import { bearer, errorResponses } from "../../lib/route-schemas";
import { principalOf } from "../../plugins/auth";

const errors = errorResponses(400, 401, 403, 404, 409, 422, 502);
const tags = ["billing"];
const base = "/v1/customer-plan";

export default async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { billing } = app.deps.services;
  const { payments } = app.deps.config;
  const signedIn = { preHandler: app.authenticate };

  app.get(
    "/v1/billing/providers",
    {
      schema: {
        tags,
        summary: "Which checkout buttons to show (public)",
        response: { 200: billingProvidersResponse },
      },
    },
    async () => ({
      data: {
        provider: payments.provider,
        checkout:
          payments.provider === "paypal"
            ? (["paypal", "card"] as const).slice()
            : (["demo"] as const).slice(),
        paypal_client_id: payments.paypal?.clientId ?? null,
      },
    }),
  );

  app.post(
    base,
    {
      preHandler: app.requirePermission(PERMISSIONS.subscribe),
      schema: {
        tags,
        security: bearer,
        summary: "Start a subscription; send the learner to approveUrl",
        body: startSubscriptionBody,
        response: { 201: startSubscriptionResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await billing.start(principalOf(request), request.body) }),
  );

  app.get(
    `${base}/by-plan-id/:id`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        summary: "The caller's latest customer plan for a plan (staff: ?user_id=)",
        params: idParams,
        querystring: customerPlanUserQuery,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => ({
      data: {
        customerPlan: await billing.byPlanId(principalOf(request), request.params.id, request.query.user_id),
      },
    }),
  );

  const statusRoute = {
    ...signedIn,
    schema: {
      tags,
      security: bearer,
      summary: "Re-read the provider's subscription and apply it (the return page calls this)",
      params: idParams,
      response: { 200: customerPlanResponse, ...errors },
    },
  };
  app.get(`${base}/update-status/:id`, statusRoute, async (request) => ({
    data: { customerPlan: await billing.updateStatus(principalOf(request), request.params.id) },
  }));

  app.get(
    `${base}/plan-check-cancel/:id`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        summary: "Spec §4 check: provider not ACTIVE while ours is → ours follows, back to the free plan",
        params: idParams,
        response: { 200: planCheckResponse, ...errors },
      },
    },
    async (request) => ({ data: await billing.planCheck(principalOf(request), request.params.id) }),
  );

  app.post(
    `${base}/update-plan-status`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        summary: "Like update-status; a status in the body is ignored (the provider's is used)",
        body: customerPlanRefBody,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => ({
      data: { customerPlan: await billing.updateStatus(principalOf(request), request.body.id) },
    }),
  );

  app.post(
    `${base}/update-last-payment`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        summary: "Re-read the provider and record its last payment",
        body: customerPlanRefBody,
        response: { 200: lastPaymentResponse, ...errors },
      },
    },
    async (request) => ({ data: await billing.updateLastPayment(principalOf(request), request.body.id) }),
  );

  app.get(
    `${base}/has-valid-pro-plan`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        querystring: customerPlanUserQuery,
        response: { 200: validProPlanResponse, ...errors },
      },
    },
    async (request) => {
      const customerPlan = await billing.validFor(principalOf(request), request.query.user_id);
      return { data: { valid: customerPlan !== null, customerPlan } };
    },
  );

  app.get(
    `${base}/valid-latest`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        querystring: customerPlanUserQuery,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => ({
      data: { customerPlan: await billing.validFor(principalOf(request), request.query.user_id) },
    }),
  );

  app.post(
    `${base}/cancel/:id`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        summary: "Cancel a subscription; premium access stays until the paid period ends (access_until)",
        params: idParams,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => ({
      message: "Subscription cancelled",
      data: { customerPlan: await billing.cancel(principalOf(request), request.params.id) },
    }),
  );

  app.get(
    `${base}/payments`,
    {
      ...signedIn,
      schema: {
        tags,
        security: bearer,
        summary: "Payment history, newest first (staff: ?user_id=)",
        querystring: paymentsQuery,
        response: { 200: paymentsResponse, ...errors },
      },
    },
    async (request) => ({ data: await billing.payments(principalOf(request), request.query) }),
  );

  for (const decision of ["approve", "decline"] as const) {
    app.post(
      `${base}/demo/:id/${decision}`,
      {
        ...signedIn,
        schema: {
          tags,
          security: bearer,
          summary: `Demo payment: no money moves (${decision})`,
          params: idParams,
          response: { 200: customerPlanResponse, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const customerPlan =
          decision === "approve"
            ? await billing.demoApprove(principal, request.params.id)
            : await billing.demoDecline(principal, request.params.id);
        return { message: "Demo payment: no money moves", data: { customerPlan } };
      },
    );
  }

  await app.register(paypalWebhookRoutes);
}

declare module "fastify" {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** PayPal's webhooks: in their own plugin, so the raw-body JSON parser applies to this route only. */
async function paypalWebhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { billing } = app.deps.services;
  const { providers } = app.deps;

  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const raw = typeof body === "string" ? body : body.toString("utf8");
    request.rawBody = raw;
    try {
      done(null, JSON.parse(raw));
    } catch {
      done(badRequest("The request body is not valid JSON"), undefined);
    }
  });

  app.post(
    "/v1/billing/webhooks/paypal",
    {
      schema: {
        tags,
        summary: "PayPal webhook: verified with PayPal, stored by event id, state re-read from PayPal",
        body: z.unknown(),
        response: { 200: webhookAckResponse, 400: errorResponse, 502: errorResponse },
      },
    },
    async (request) => {
      const provider = providers.active;
      if (provider.name !== "paypal") throw badRequest("PayPal webhooks are not configured");
      const verified = await provider.verifyWebhook({ headers: request.headers, body: request.body });
      if (!verified) {
        request.log.warn(
          { headers: request.headers["paypal-transmission-id"] },
          "rejected an unverified PayPal webhook",
        );
        throw new AppError(400, "BAD_REQUEST", "Webhook signature could not be verified");
      }
      const { duplicate } = await billing.handleWebhook("paypal", request.body);
      return { data: { received: true, duplicate } };
    },
  );
}
