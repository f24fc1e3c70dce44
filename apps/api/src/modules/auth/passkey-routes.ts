import {
  errorResponse,
  idParams,
  messageResponse,
  passkeyListResponse,
  passkeyOptionsResponse,
  passkeyRegisterBody,
  passkeyRenameBody,
  passkeyResponse,
  passkeySignInBody,
  secondFactorPasskeyBody,
  secondFactorPasskeySetupBody,
  secondFactorTicketBody,
  tokenResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { sessionOf } from "../../plugins/auth";
import { signInKit } from "./sign-in-kit";

const errors = errorResponses(401, 403);
const passkeyErrors = { 400: errorResponse, 409: errorResponse, 429: errorResponse, ...errors };

/**
 * Passkeys (WebAuthn): the account's own in the profile, the second step of a sign-in answered by
 * one, and a sign-in with a passkey alone (docs/decisions.md, "Passkeys").
 */
export default async function passkeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, passkeys, pageCookie } = app.deps.services;
  const { config } = app.deps;
  // each account's attempts are counted too (passkey-service.ts)
  const { step, mine, userOf, meta, signedIn } = signInKit(config, pageCookie);

  app.post(
    "/v1/auth/passkey/options",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "Start a sign-in with a passkey alone: a challenge for the browser (5 minutes, once)",
        response: { 200: passkeyOptionsResponse, 429: errorResponse },
      },
    },
    async () => ({ data: await passkeys.signInOptions() }),
  );

  app.post(
    "/v1/auth/passkey/verify",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "Sign in with a passkey alone (user verification required): both factors at once",
        description:
          "400 PASSKEY_CHALLENGE_INVALID for a challenge unknown, expired or already answered; 401 " +
          "PASSKEY_UNKNOWN for a passkey not registered here; 401 PASSKEY_INVALID when the signature, " +
          "origin, user verification or counter do not hold; 429 while the account's attempts wait.",
        body: passkeySignInBody,
        response: { 200: tokenResponse, ...passkeyErrors },
      },
    },
    async (request, reply) => {
      const userId = await passkeys.verifySignIn(request.body.response);
      return signedIn(reply, await auth.completeLogin(userId, meta(request), "passkey", "passkey"));
    },
  );

  app.post(
    "/v1/auth/second-factor/passkey/options",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "The second step of a sign-in with a passkey: a challenge for the account's passkeys",
        body: secondFactorTicketBody,
        response: { 200: passkeyOptionsResponse, ...passkeyErrors },
      },
    },
    async (request) => ({ data: await passkeys.secondFactorOptions(request.body.ticket) }),
  );

  app.post(
    "/v1/auth/second-factor/passkey/verify",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "Finish a sign-in with one of the account's passkeys",
        description:
          "The errors of POST /v1/auth/passkey/verify; a passkey of another account is PASSKEY_UNKNOWN.",
        body: secondFactorPasskeyBody,
        response: { 200: tokenResponse, ...passkeyErrors },
      },
    },
    async (request, reply) => {
      const done = await passkeys.verifySecondFactor(request.body.ticket, request.body.response);
      return signedIn(reply, await auth.completeLogin(done.userId, done.meta, done.method, "passkey"));
    },
  );

  app.post(
    "/v1/auth/second-factor/setup/passkey/options",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "During a sign-in that must set up a second factor: creation options for a passkey",
        description:
          "401 CHALLENGE_INVALID for a ticket expired, used, or whose account already has a second factor.",
        body: secondFactorTicketBody,
        response: { 200: passkeyOptionsResponse, ...passkeyErrors },
      },
    },
    async (request) => ({ data: await passkeys.setupOptions(request.body.ticket) }),
  );

  app.post(
    "/v1/auth/second-factor/setup/passkey",
    {
      config: step,
      schema: {
        tags: ["auth"],
        summary: "Register the passkey the browser created: the sign-in that had to set one up ends",
        description:
          "The errors of POST /v1/user/me/passkeys (422 PASSKEY_INVALID, 400 PASSKEY_CHALLENGE_INVALID) " +
          "and 401 CHALLENGE_INVALID for the ticket; the session opens with the passkey as its second factor.",
        body: secondFactorPasskeySetupBody,
        response: { 200: tokenResponse, 422: errorResponse, ...passkeyErrors },
      },
    },
    async (request, reply) => {
      const { ticket, name, response } = request.body;
      const done = await passkeys.registerWithTicket(ticket, name, response);
      return signedIn(reply, await auth.completeLogin(done.userId, done.meta, done.method, "passkey"));
    },
  );

  app.get(
    "/v1/user/me/passkeys",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "My passkeys: name, created, last used",
        response: { 200: passkeyListResponse, ...errors },
      },
    },
    async (request) => ({ data: await passkeys.list(userOf(request)) }),
  );

  app.post(
    "/v1/user/me/passkeys/options",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "Start registering a passkey: creation options (5 minutes, once)",
        response: { 200: passkeyOptionsResponse, ...passkeyErrors },
      },
    },
    async (request) => ({ data: await passkeys.registrationOptions(userOf(request)) }),
  );

  app.post(
    "/v1/user/me/passkeys",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "Register the passkey the browser created, under a name",
        description:
          "422 PASSKEY_INVALID when the answer does not hold (origin, challenge, user verification); " +
          "409 when it is already registered. This session counts as opened with a second factor; " +
          "other sessions opened without one end at their next refresh.",
        body: passkeyRegisterBody,
        response: { 201: passkeyResponse, 422: errorResponse, ...passkeyErrors },
      },
    },
    async (request, reply) => {
      const { name, response } = request.body;
      const created = await passkeys.register(userOf(request), sessionOf(request), name, response);
      return reply.code(201).send({ message: "Passkey added", data: created });
    },
  );

  app.patch(
    "/v1/user/me/passkeys/:id",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "Rename one of my passkeys",
        params: idParams,
        body: passkeyRenameBody,
        response: { 200: passkeyResponse, 404: errorResponse, ...errors },
      },
    },
    async (request) => ({
      message: "Passkey renamed",
      data: await passkeys.rename(userOf(request), request.params.id, request.body.name),
    }),
  );

  app.delete(
    "/v1/user/me/passkeys/:id",
    {
      config: mine,
      schema: {
        tags: ["auth"],
        summary: "Remove one of my passkeys",
        description:
          "403 SECOND_FACTOR_REQUIRED for staff's last second factor while the setting requires one.",
        params: idParams,
        response: { 200: messageResponse, 404: errorResponse, ...errors },
      },
    },
    async (request) => {
      await passkeys.remove(userOf(request), request.params.id);
      return { message: "Passkey removed" };
    },
  );
}
