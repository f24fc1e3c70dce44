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
  receiptPdfQuery,
  receiptResponse,
  startSubscriptionBody,
  startSubscriptionResponse,
  toLocale,
  trialEligibilityResponse,
  validProPlanResponse,
  webhookAckResponse,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, badRequest } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { learnerLimits } from "../../plugins/learner-limits";
import { customerPlanPolicy, customerPlansOfPolicy, receiptPolicy } from "./policy";
import { receiptPdf } from "./receipt-pdf";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(404, 409, 502);
const tags = ["billing"];
const base = "/v1/customer-plan";

export default async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { billing, audit, receipts } = app.deps.services;
  const { payments } = app.deps.config;
  /** A receipt: the learner it was issued to, or staff with customer-plans.manage. */
  const receiptOwner = { access: access.owner(receiptPolicy((id) => receipts.ownerOf(id))) };
  const subscriberOf = (id: string) => billing.subscriberOf(id);
  /** The customer plan in the path: its subscriber, or staff with customer-plans.manage. */
  const planInPath = {
    access: access.owner(customerPlanPolicy(subscriberOf, { reads: "params", staff: true })),
  };
  const planInBody = {
    access: access.owner(customerPlanPolicy(subscriberOf, { reads: "body", staff: true })),
  };
  const subscriberOnly = {
    access: access.owner(customerPlanPolicy(subscriberOf, { reads: "params", staff: false })),
  };
  /** ?user_id=: the caller's own, or anyone's for staff with customer-plans.manage. */
  const plansOf = { access: access.owner(customerPlansOfPolicy) };
  const ownerOf = (request: FastifyRequest, userId: string | undefined) => userId ?? principalOf(request).id;

  app.get(
    "/v1/billing/providers",
    {
      config: { access: access.public },
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

  app.get(
    "/v1/billing/trial",
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "Whether the caller's next subscription starts with the plan's free days (one trial, ever)",
        response: { 200: trialEligibilityResponse },
      },
    },
    async (request) => ({ data: { available: await billing.trialAvailable(principalOf(request).id) } }),
  );

  app.post(
    base,
    {
      config: { access: access.permission(PERMISSIONS.subscribe) },
      schema: {
        tags,
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
      config: plansOf,
      schema: {
        tags,
        summary: "The caller's latest customer plan for a plan (staff: ?user_id=)",
        params: idParams,
        querystring: customerPlanUserQuery,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => ({
      data: {
        customerPlan: await billing.byPlanId(ownerOf(request, request.query.user_id), request.params.id),
      },
    }),
  );

  const statusRoute = {
    config: planInPath,
    schema: {
      tags,
      summary: "Re-read the provider's subscription and apply it (the return page calls this)",
      params: idParams,
      response: { 200: customerPlanResponse, ...errors },
    },
  };
  app.get(`${base}/update-status/:id`, statusRoute, async (request) => ({
    data: { customerPlan: await billing.updateStatus(request.params.id) },
  }));

  app.get(
    `${base}/plan-check-cancel/:id`,
    {
      config: planInPath,
      schema: {
        tags,
        summary: "Spec §4 check: provider not ACTIVE while ours is → ours follows, back to the free plan",
        params: idParams,
        response: { 200: planCheckResponse, ...errors },
      },
    },
    async (request) => ({ data: await billing.planCheck(request.params.id) }),
  );

  app.post(
    `${base}/update-plan-status`,
    {
      config: planInBody,
      schema: {
        tags,
        summary: "Like update-status; a status in the body is ignored (the provider's is used)",
        body: customerPlanRefBody,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => ({
      data: { customerPlan: await billing.updateStatus(request.body.id) },
    }),
  );

  app.post(
    `${base}/update-last-payment`,
    {
      config: planInBody,
      schema: {
        tags,
        summary: "Re-read the provider and record its last payment",
        body: customerPlanRefBody,
        response: { 200: lastPaymentResponse, ...errors },
      },
    },
    async (request) => ({ data: await billing.updateLastPayment(request.body.id) }),
  );

  app.get(
    `${base}/has-valid-pro-plan`,
    {
      config: plansOf,
      schema: {
        tags,
        querystring: customerPlanUserQuery,
        response: { 200: validProPlanResponse, ...errors },
      },
    },
    async (request) => {
      const customerPlan = await billing.validFor(ownerOf(request, request.query.user_id));
      return { data: { valid: customerPlan !== null, customerPlan } };
    },
  );

  app.get(
    `${base}/valid-latest`,
    {
      config: plansOf,
      schema: {
        tags,
        querystring: customerPlanUserQuery,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => ({
      data: { customerPlan: await billing.validFor(ownerOf(request, request.query.user_id)) },
    }),
  );

  app.post(
    `${base}/cancel/:id`,
    {
      config: planInPath,
      schema: {
        tags,
        summary: "Cancel a subscription; premium access stays until the paid period ends (access_until)",
        params: idParams,
        response: { 200: customerPlanResponse, ...errors },
      },
    },
    async (request) => {
      const customerPlan = await billing.cancel(request.params.id);
      await audit.record({
        actor: principalOf(request),
        action: "subscriptions.cancel",
        target: { type: "subscription", id: request.params.id },
        after: customerPlan,
      });
      return { message: "Subscription cancelled", data: { customerPlan } };
    },
  );

  app.get(
    `${base}/payments`,
    {
      config: plansOf,
      schema: {
        tags,
        summary: "Payment history, newest first (staff: ?user_id=)",
        querystring: paymentsQuery,
        response: { 200: paymentsResponse, ...errors },
      },
    },
    async (request) => ({
      data: await billing.payments(ownerOf(request, request.query.user_id), request.query),
    }),
  );

  app.get(
    "/v1/receipts/:id",
    {
      config: receiptOwner,
      schema: {
        tags,
        summary: "A payment's numbered receipt (its learner, or staff)",
        params: idParams,
        response: { 200: receiptResponse, ...errors },
      },
    },
    async (request) => ({ data: { receipt: await receipts.get(request.params.id) } }),
  );

  app.get(
    "/v1/receipts/:id/pdf",
    {
      config: { ...receiptOwner, rateLimit: learnerLimits.pdf },
      schema: {
        tags,
        summary: "A receipt as a PDF, in ?lang= or the learner's language",
        params: idParams,
        querystring: receiptPdfQuery,
        response: { 200: z.unknown().describe("The receipt as a PDF (application/pdf)"), ...errors },
      },
    },
    async (request, reply) => {
      const receipt = await receipts.get(request.params.id);
      const lang = request.query.lang ?? toLocale(receipt.lang);
      const pdf = await receiptPdf(receipt, lang);
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `attachment; filename="${receipt.number}.pdf"`)
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );

  for (const decision of ["approve", "decline"] as const) {
    app.post(
      `${base}/demo/:id/${decision}`,
      {
        config: subscriberOnly,
        schema: {
          tags,
          summary: `Demo payment: no money moves (${decision})`,
          params: idParams,
          response: { 200: customerPlanResponse, ...errors },
        },
      },
      async (request) => {
        const customerPlan =
          decision === "approve"
            ? await billing.demoApprove(request.params.id)
            : await billing.demoDecline(request.params.id);
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
      // PayPal's signature, verified with PayPal, is the credential
      config: { access: access.public },
      schema: {
        tags,
        summary: "PayPal webhook: verified with PayPal, stored by event id, state re-read from PayPal",
        body: z.unknown(),
        response: { 200: webhookAckResponse, 400: errorResponse, 502: errorResponse },
      },
    },
    async (request) => {
      const provider = providers.active;
      const count = (outcome: string) => app.metrics.webhook("paypal", outcome);
      if (provider.name !== "paypal") {
        count("rejected");
        throw badRequest("PayPal webhooks are not configured");
      }
      const verified = await provider
        .verifyWebhook({ headers: request.headers, body: request.body })
        .catch((err: unknown) => {
          count("failed");
          throw err;
        });
      if (!verified) {
        count("rejected");
        request.log.warn(
          { headers: request.headers["paypal-transmission-id"] },
          "rejected an unverified PayPal webhook",
        );
        throw new AppError(400, "BAD_REQUEST", "Webhook signature could not be verified");
      }
      const { duplicate } = await billing.handleWebhook("paypal", request.body).catch((err: unknown) => {
        count(err instanceof AppError && err.statusCode < 500 ? "rejected" : "failed");
        throw err;
      });
      count(duplicate ? "duplicate" : "processed");
      return { data: { received: true, duplicate } };
    },
  );
}
