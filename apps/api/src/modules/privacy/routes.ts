import {
  dataExportJobResponse,
  dataRequestListQuery,
  dataRequestListResponse,
  dataRequestResponse,
  deleteAccountBody,
  idParams,
  messageResponse,
  myDataRequestsResponse,
  PERMISSIONS,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/errors";
import { PAGE_COOKIE } from "../../lib/page-cookie";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { learnerLimits } from "../../plugins/learner-limits";

const tags = ["privacy"];
const REFRESH_COOKIE = "auth.refresh";

/** The learner's data rights: a copy of their data, closing their account; staff's list of requests. */
export default async function privacyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { privacy } = app.deps.services;
  const attachment = (name: string) => `attachment; filename="${name}"`;

  app.post(
    "/v1/user/me/data-export",
    {
      config: { access: access.signedIn, rateLimit: learnerLimits.dataExport },
      schema: {
        tags,
        summary:
          "A copy of the learner's own data: the JSON archive at once (200), or a job whose link is mailed (202)",
        response: { 200: z.record(z.string(), z.unknown()), 202: dataExportJobResponse },
      },
    },
    async (request, reply) => {
      const outcome = await privacy.requestExport(principalOf(request).id);
      if ("request" in outcome) return reply.status(202).send({ data: { request: outcome.request } });
      return reply
        .header(
          "content-disposition",
          attachment(`parlons-data-${new Date().toISOString().slice(0, 10)}.json`),
        )
        .header("cache-control", "no-store")
        .send(outcome.archive);
    },
  );

  app.get(
    "/v1/user/me/data-requests",
    {
      config: { access: access.signedIn },
      schema: { tags, response: { 200: myDataRequestsResponse } },
    },
    async (request) => ({ data: { requests: await privacy.mine(principalOf(request).id) } }),
  );

  // the mailed link: its unguessable token is the credential (the mail may be opened elsewhere)
  app.get(
    "/v1/data-exports/:token",
    {
      config: { access: access.public },
      schema: {
        tags,
        params: z.object({ token: z.string().min(10).max(200) }),
        response: { 200: z.record(z.string(), z.unknown()), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const file = await privacy.download(request.params.token);
      if (!file) throw notFound("Data export");
      return reply
        .header("content-disposition", attachment("parlons-data.json"))
        .header("cache-control", "no-store")
        .send(JSON.parse(file.toString("utf8")) as Record<string, unknown>);
    },
  );

  app.post(
    "/v1/user/me/delete",
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary:
          "Close the learner's own account: the subscription cancelled at the provider, every session ended, personal data erased",
        body: deleteAccountBody,
        response: { 200: messageResponse },
      },
    },
    async (request, reply) => {
      await privacy.eraseAccount(principalOf(request).id, request.body.password);
      reply.clearCookie(REFRESH_COOKIE, { path: "/api/v1/auth" });
      reply.clearCookie(PAGE_COOKIE, { path: "/" });
      return { message: "Account deleted" };
    },
  );

  app.get(
    "/v1/data-requests",
    {
      config: { access: access.permission(PERMISSIONS.privacyManage) },
      schema: {
        tags,
        summary: "Learners' data export and erasure requests, newest first",
        querystring: dataRequestListQuery,
        response: { 200: dataRequestListResponse },
      },
    },
    async (request) => ({ data: await privacy.list(request.query) }),
  );

  app.post(
    "/v1/data-requests/:id/process",
    {
      config: { access: access.permission(PERMISSIONS.privacyManage) },
      schema: {
        tags,
        summary: "Run a pending or failed export job now",
        params: idParams,
        response: { 200: dataRequestResponse, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return { data: { request: await privacy.process(request.params.id, principal) } };
    },
  );
}
