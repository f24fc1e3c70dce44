import {
  mailPreferencesBody,
  mailPreferencesResponse,
  unsubscribeParams,
  unsubscribeResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

const tags = ["mail preferences"];
const tokenErrors = errorResponses(400, 404);

/**
 * One-click unsubscribe (RFC 8058) and the learner's mail preferences. The unsubscribe routes are
 * public: the signed token in the path is the only credential, and it only unsubscribes (or
 * subscribes again) its own user from its own kind of mail.
 */
export default async function mailPreferenceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { mailPreferences } = app.deps.services;
  const open = { access: access.public };

  // a mail client's one-click POST is `List-Unsubscribe=One-Click` as a form: read it as text, ignore it
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );

  app.get(
    "/v1/unsubscribe/:token",
    {
      config: open,
      schema: {
        tags,
        summary: "The link of a List-Unsubscribe header opened in a browser: 303 to the confirmation page",
        params: unsubscribeParams,
        response: { 303: z.null().describe("303: Location is the confirmation page") },
      },
    },
    async (request, reply) => reply.redirect(await mailPreferences.pagePath(request.params.token), 303),
  );

  app.post(
    "/v1/unsubscribe/:token",
    {
      config: open,
      schema: {
        tags,
        summary: "One-click unsubscribe (RFC 8058): no sign-in, the signed token names the user and the kind",
        params: unsubscribeParams,
        response: { 200: unsubscribeResponse, ...tokenErrors },
      },
    },
    async (request) => ({ data: await mailPreferences.unsubscribe(request.params.token) }),
  );

  app.get(
    "/v1/unsubscribe/:token/status",
    {
      config: open,
      schema: {
        tags,
        summary: "What an unsubscribe link is about, and whether its user still receives that kind of mail",
        params: unsubscribeParams,
        response: { 200: unsubscribeResponse, ...tokenErrors },
      },
    },
    async (request) => ({ data: await mailPreferences.status(request.params.token) }),
  );

  app.post(
    "/v1/unsubscribe/:token/resubscribe",
    {
      config: open,
      schema: {
        tags,
        summary: "Subscribe again from the unsubscribe page",
        params: unsubscribeParams,
        response: { 200: unsubscribeResponse, ...tokenErrors },
      },
    },
    async (request) => ({ data: await mailPreferences.resubscribe(request.params.token) }),
  );

  app.get(
    "/v1/user/me/mail-preferences",
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "Each kind of non-transactional mail and whether the caller receives it",
        response: { 200: mailPreferencesResponse, ...errorResponses() },
      },
    },
    async (request) => ({ data: await mailPreferences.list(principalOf(request).id) }),
  );

  app.put(
    "/v1/user/me/mail-preferences",
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "Switch kinds of mail on or off",
        body: mailPreferencesBody,
        response: { 200: mailPreferencesResponse, ...errorResponses() },
      },
    },
    async (request) => ({
      data: await mailPreferences.update(principalOf(request).id, request.body),
    }),
  );
}
