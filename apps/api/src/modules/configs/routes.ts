import {
  configBody,
  configDeleteResponse,
  configKeyParams,
  configListQuery,
  configListResponse,
  configResponse,
  configUpdateBody,
  PERMISSIONS,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(404, 409);
const tags = ["configs"];
/** A value is 16 KB of JSON at most (422 beyond); bodies far larger are cut before parsing (413). */
const bodyLimit = 64 * 1024;

/** `/v1/configs`: key/value configuration, staff with configs.manage only. */
export default async function configRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { configs } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.configsManage) };

  app.get(
    "/v1/configs",
    {
      config: manage,
      schema: {
        tags,
        querystring: configListQuery,
        response: { 200: configListResponse, ...errors },
      },
    },
    async (request) => ({ data: await configs.list(request.query) }),
  );

  app.get(
    "/v1/configs/:key",
    {
      config: manage,
      schema: {
        tags,
        params: configKeyParams,
        response: { 200: configResponse, ...errors },
      },
    },
    async (request) => ({ data: { config: await configs.get(request.params.key) } }),
  );

  app.post(
    "/v1/configs",
    {
      config: manage,
      bodyLimit,
      schema: { tags, body: configBody, response: { 201: configResponse, ...errors } },
    },
    async (request, reply) => {
      const config = await configs.create(principalOf(request), request.body);
      reply.status(201);
      return { message: "Config created", data: { config } };
    },
  );

  app.put(
    "/v1/configs/:key",
    {
      config: manage,
      bodyLimit,
      schema: {
        tags,
        params: configKeyParams,
        body: configUpdateBody,
        response: { 200: configResponse, ...errors },
      },
    },
    async (request) => ({
      message: "Config updated",
      data: { config: await configs.update(principalOf(request), request.params.key, request.body) },
    }),
  );

  app.delete(
    "/v1/configs/:key",
    {
      config: manage,
      schema: {
        tags,
        params: configKeyParams,
        response: { 200: configDeleteResponse, ...errors },
      },
    },
    async (request) => ({
      message: "Config deleted",
      data: await configs.delete(principalOf(request), request.params.key),
    }),
  );
}
