import { auditListQuery, auditListResponse, PERMISSIONS } from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";

const errors = errorResponses(400, 401, 403, 422);

/** `/v1/audit`: the audit log, read only (no route changes or deletes an entry). */
export default async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { audit } = app.deps.services;

  app.get(
    "/v1/audit",
    {
      config: { access: access.permission(PERMISSIONS.auditRead) },
      schema: {
        tags: ["audit"],
        summary:
          "Staff actions and security events, newest first, filtered by actor, action, target and date",
        querystring: auditListQuery,
        response: { 200: auditListResponse, ...errors },
      },
    },
    async (request) => ({ data: await audit.list(request.query) }),
  );
}
