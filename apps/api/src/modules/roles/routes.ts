import {
  idParams,
  messageResponse,
  PERMISSIONS,
  permissionListResponse,
  roleCreateBody,
  roleListResponse,
  roleResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notFound } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(404, 409);

export default async function roleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { roles, audit } = app.deps.services;
  const guard = { access: access.permission(PERMISSIONS.rolesManage) };

  app.get(
    "/v1/api/role",
    {
      config: guard,
      schema: { tags: ["roles"], response: { 200: roleListResponse, ...errors } },
    },
    async () => ({
      data: { roles: await roles.listRoles() },
    }),
  );

  app.get(
    "/v1/api/permission",
    {
      config: guard,
      schema: { tags: ["roles"], response: { 200: permissionListResponse, ...errors } },
    },
    async () => ({ data: { permissions: await roles.listPermissions() } }),
  );

  app.post(
    "/v1/api/role",
    {
      config: guard,
      schema: {
        tags: ["roles"],
        body: roleCreateBody,
        response: { 201: roleResponse, ...errors },
      },
    },
    async (request, reply) => {
      const role = await roles.createRole(request.body, principalOf(request));
      await audit.record({
        actor: principalOf(request),
        action: "roles.create",
        target: { type: "role", id: role.id },
        after: role,
      });
      return reply.status(201).send({ message: "Role created", data: { role } });
    },
  );

  app.delete(
    "/v1/api/:id",
    {
      config: guard,
      schema: {
        tags: ["roles"],
        params: idParams,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => {
      const [role] = await roles.listRoles({ ids: [request.params.id] });
      if (!role) throw notFound("Role");
      await roles.deleteRole(request.params.id, principalOf(request));
      await audit.record({
        actor: principalOf(request),
        action: "roles.delete",
        target: { type: "role", id: role.id },
        before: role,
      });
      return { message: "Role deleted" };
    },
  );
}
