import {
  envelope,
  errorResponse,
  secondFactorChallenge,
  socialLoginQuery,
  socialLoginResponse,
  speak,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { signInKit } from "./sign-in-kit";
import { langOf, STATE_TTL_SECONDS } from "./social";

/** State of a social sign-in in progress (provider, language, state, PKCE verifier; signed). */
const OAUTH_STATE_COOKIE = "auth.oauth";
// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(401, 403);

/** Social sign-in (docs/decisions.md, "Social sign-in"): the provider's page, its callback, the ticket exchange. */
export default async function socialRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { social, pageCookie } = app.deps.services;
  const { config } = app.deps;
  const { step: authLimit, open, meta, signedIn } = signInKit(config, pageCookie);

  const oauthCookiePath = "/api/v1/auth/oauth";
  const providerParams = z.object({ provider: z.string().max(30) });
  const redirect = z.null().describe("302: Location is the next step");
  const notConfigured = () =>
    new AppError(404, "NOT_FOUND", "This sign-in provider is not configured on this server");

  app.get(
    "/v1/auth/oauth/:provider",
    {
      config: open,
      schema: {
        tags: ["auth"],
        summary: "Start social sign-in: 302 to the provider's authorization page",
        description:
          "provider: google, facebook or github (configured ones; others 404). Sets the short-lived " +
          "state cookie `auth.oauth` and redirects to the provider, which comes back to the callback.",
        params: providerParams,
        querystring: z.object({ lang: z.string().max(5).optional() }),
        response: { 302: redirect, 404: errorResponse, 422: errorResponse },
      },
    },
    async (request, reply) => {
      const started = social.begin(request.params.provider, langOf(request.query.lang));
      if (!started) throw notConfigured();
      reply.setCookie(OAUTH_STATE_COOKIE, started.cookie, {
        httpOnly: true,
        sameSite: "lax",
        secure: config.secureCookies,
        path: oauthCookiePath,
        maxAge: STATE_TTL_SECONDS,
      });
      return reply.redirect(started.url, 302);
    },
  );

  app.get(
    "/v1/auth/oauth/:provider/callback",
    {
      config: authLimit,
      schema: {
        tags: ["auth"],
        summary:
          "Social sign-in callback: 302 to /login?provider=&token= (a one-time ticket) or /login?social_error=",
        description:
          "social_error: state (missing or mismatched state), denied (cancelled at the provider), failed, " +
          "email (no verified email), closed (registrations closed), disabled, unavailable (provider down).",
        params: providerParams,
        querystring: z.looseObject({
          code: z.string().max(2048).optional(),
          state: z.string().max(200).optional(),
          error: z.string().max(200).optional(),
        }),
        response: { 302: redirect, 404: errorResponse, 422: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      if (!social.isConfigured(request.params.provider)) throw notConfigured();
      const { code, state, error } = request.query;
      const next = await social.callback(
        request.params.provider,
        { code, state, error },
        request.cookies[OAUTH_STATE_COOKIE],
      );
      reply.clearCookie(OAUTH_STATE_COOKIE, { path: oauthCookiePath });
      return reply.redirect(next, 302);
    },
  );

  app.post(
    "/v1/auth/social-login/:provider",
    {
      config: authLimit,
      schema: {
        tags: ["auth"],
        summary: "Exchange a sign-in ticket (or a provider token) for a session",
        description:
          "token: the one-time ticket of the callback, or a provider token (Google ID token, Facebook " +
          "user access token, GitHub access token). The body (the spec's user object) is optional and " +
          "never used for identity; `speak` sets the language of an account created here.",
        params: providerParams,
        querystring: socialLoginQuery,
        body: z.looseObject({ speak: speak.optional() }).nullish(),
        response: {
          200: z.union([socialLoginResponse, envelope(z.object({ secondFactor: secondFactorChallenge }))]),
          404: errorResponse,
          502: errorResponse,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const outcome = await social.login(
        request.params.provider,
        request.query.token,
        meta(request),
        request.body?.speak ?? "FR",
      );
      if ("secondFactor" in outcome)
        return { message: "Second factor required", data: { secondFactor: outcome.secondFactor } };
      const { message, data } = signedIn(reply, outcome.tokens);
      return { message, access_token: data.accessToken, data };
    },
  );
}
