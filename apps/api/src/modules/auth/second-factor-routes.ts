import {
  errorResponse,
  recoveryCodesResponse,
  secondFactorConfirmBody,
  secondFactorSetupDoneResponse,
  secondFactorTicketBody,
  secondFactorVerifyBody,
  tokenResponse,
  totpCodeBody,
  totpSetupResponse,
  twoFactorStatusResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { sessionOf } from "../../plugins/auth";
import { signInKit } from "./sign-in-kit";

const errors = errorResponses(401, 403);
const codeErrors = { 409: errorResponse, 429: errorResponse, ...errors };

/**
 * The second step of a sign-in (a ticket from `POST /v1/user/authenticate` or social sign-in) and
 * the account's own second factors in the profile (docs/decisions.md, "Two factors").
 */
export default async function secondFactorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, secondFactor, pageCookie } = app.deps.services;
  const { config } = app.deps;
  // codes are guessed per account too (second-factor-service.ts)
  const { step, mine, userOf, signedIn } = signInKit(config, pageCookie);

  app.post(
    "/v1/auth/second-factor/verify",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "Finish a sign-in with a code of the authenticator app or a recovery code",
        description:
          "A wrong code answers 422 SECOND_FACTOR_INVALID; after 5 wrong codes in a row the account's " +
          "code entry locks for 15 minutes (429 SECOND_FACTOR_LOCKED, Retry-After). A TOTP code works once.",
        body: secondFactorVerifyBody,
        response: { 200: tokenResponse, ...codeErrors },
      },
    },
    async (request, reply) => {
      const { ticket, method, code } = request.body;
      const done = await secondFactor.verify(ticket, method, code);
      return signedIn(reply, await auth.completeLogin(done.userId, done.meta, done.method, done.factor));
    },
  );

  app.post(
    "/v1/auth/second-factor/setup",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "During a sign-in that must set up a second factor: a new authenticator secret",
        body: secondFactorTicketBody,
        response: { 200: totpSetupResponse, ...codeErrors },
      },
    },
    async (request) => ({ data: await secondFactor.setupWithTicket(request.body.ticket) }),
  );

  app.post(
    "/v1/auth/second-factor/setup/confirm",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "Confirm the new authenticator with a code: the sign-in ends, recovery codes shown once",
        body: secondFactorTicketBody.extend(totpCodeBody.shape),
        response: { 200: secondFactorSetupDoneResponse, ...codeErrors },
      },
    },
    async (request, reply) => {
      const done = await secondFactor.confirmWithTicket(request.body.ticket, request.body.code);
      const issued = await auth.completeLogin(done.userId, done.meta, done.method, done.factor);
      return signedIn(reply, issued, { recoveryCodes: done.recoveryCodes });
    },
  );

  app.get(
    "/v1/user/me/two-factor",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "What protects my account: authenticator app, recovery codes left",
        response: { 200: twoFactorStatusResponse, ...errors },
      },
    },
    async (request) => ({ data: await secondFactor.status(userOf(request)) }),
  );

  app.post(
    "/v1/user/me/two-factor/totp/setup",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "Start setting up an authenticator app: a new secret and its QR code",
        response: { 200: totpSetupResponse, ...errors },
      },
    },
    async (request) => ({ data: await secondFactor.setup(userOf(request)) }),
  );

  app.post(
    "/v1/user/me/two-factor/totp/enable",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "Turn the authenticator app on with a code of it: recovery codes, shown once",
        description: "Other sessions opened without a second factor end at their next refresh.",
        body: totpCodeBody,
        response: { 200: recoveryCodesResponse, ...codeErrors },
      },
    },
    async (request) => ({
      message: "Two-factor authentication is on",
      data: {
        recoveryCodes: await secondFactor.confirmSetup(
          userOf(request),
          sessionOf(request),
          request.body.code,
        ),
      },
    }),
  );

  app.post(
    "/v1/user/me/two-factor/totp/disable",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "Turn the authenticator app off (a code of it or a recovery code confirms)",
        body: secondFactorConfirmBody,
        response: { 200: recoveryCodesResponse.pick({ message: true }), ...codeErrors },
      },
    },
    async (request) => {
      await secondFactor.disable(userOf(request), request.body.code);
      return { message: "Two-factor authentication is off" };
    },
  );

  app.post(
    "/v1/user/me/two-factor/recovery-codes",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "New recovery codes (the old ones stop working), shown once",
        body: secondFactorConfirmBody,
        response: { 200: recoveryCodesResponse, ...codeErrors },
      },
    },
    async (request) => ({
      data: { recoveryCodes: await secondFactor.regenerateRecoveryCodes(userOf(request), request.body.code) },
    }),
  );
}
