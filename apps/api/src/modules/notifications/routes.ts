import {
  idParams,
  notificationListQuery,
  notificationListResponse,
  notificationResponse,
  notificationsReadAllResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(404);
const tags = ["notifications"];

/** `/v1/notifications`: the signed-in user's own in-app notifications. */
export default async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { notifications } = app.deps.services;

  app.get(
    "/v1/notifications",
    {
      // kept per reader until their notifications change (service.ts says who tells)
      config: {
        access: access.signedIn,
        keep: { per: "reader", droppedBy: ["events"], droppedByReader: ["notifications"] },
      },
      schema: {
        tags,
        querystring: notificationListQuery,
        response: { 200: notificationListResponse, ...errors },
      },
    },
    async (request) => ({ data: await notifications.list(principalOf(request), request.query) }),
  );

  // spec §7 "Mark all notifications read" (path not shown)
  app.post(
    "/v1/notifications/read-all",
    {
      config: { access: access.signedIn },
      schema: { tags, response: { 200: notificationsReadAllResponse, ...errors } },
    },
    async (request) => ({
      message: "Notifications marked read",
      data: await notifications.markAllRead(principalOf(request)),
    }),
  );

  app.post(
    "/v1/notifications/:id/read",
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        params: idParams,
        response: { 200: notificationResponse, ...errors },
      },
    },
    async (request) => ({
      data: { notification: await notifications.markRead(principalOf(request), request.params.id) },
    }),
  );
}
