import {
  pushEndpointBody,
  pushStatusQuery,
  pushStatusResponse,
  pushSubscriptionBody,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

const tags = ["push"];

/** The caller's browsers that receive reminders as notifications (Web Push): status, opt in, stop. */
export default async function pushRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { push } = app.deps.services;
  const signedIn = { access: access.signedIn };
  const response = { 200: pushStatusResponse, ...errorResponses() };

  app.get(
    "/v1/push",
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "The server's public VAPID key, how many of the caller's browsers receive reminders, and whether this one (its endpoint) does",
        querystring: pushStatusQuery,
        response,
      },
    },
    async (request) => ({ data: await push.status(principalOf(request).id, request.query.endpoint) }),
  );

  app.post(
    "/v1/push/subscriptions",
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "This browser receives the caller's study and event reminders (its PushSubscription; a known push service only)",
        body: pushSubscriptionBody,
        response,
      },
    },
    async (request) => ({ data: await push.subscribe(principalOf(request).id, request.body) }),
  );

  app.post(
    "/v1/push/unsubscribe",
    {
      config: signedIn,
      schema: {
        tags,
        summary: "This browser (its endpoint) stops receiving the caller's reminders",
        body: pushEndpointBody,
        response,
      },
    },
    async (request) => ({ data: await push.unsubscribe(principalOf(request).id, request.body.endpoint) }),
  );
}
