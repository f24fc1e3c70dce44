import { createHash } from "node:crypto";
import {
  authenticateBody,
  changePasswordBody,
  emailQuery,
  envelope,
  errorResponse,
  existsResponse,
  messageResponse,
  normalizeEmail,
  resendActivationBody,
  resetPasswordBody,
  selfRegisterBody,
  selfRegisterResponse,
  signInResponse,
  tokenBody,
  tokenResponse,
  tokenValidResponse,
  usernameQuery,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, unauthenticated } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf, sessionOf } from "../../plugins/auth";
import { REFRESH_COOKIE } from "./session-cookies";
import { signInKit } from "./sign-in-kit";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(401, 403);

/** A client's address for limits: an IPv4 address, or the /64 network of an IPv6 one. */
function clientOf(ip: string): string {
  if (!ip.includes(":") || ip.startsWith("::ffff:")) return ip;
  return ip.split(":").slice(0, 4).join(":");
}

/** The account a sign-in body names (not validated yet: the limit runs before validation), hashed. */
function accountOf(body: unknown): string {
  const username = (body as { username?: unknown } | null)?.username;
  const email = typeof username === "string" ? normalizeEmail(username.slice(0, 320)) : "";
  return createHash("sha256").update(email).digest("base64url").slice(0, 22);
}

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, sessions, users, pageCookie, secondFactor } = app.deps.services;
  const { config } = app.deps;
  const { step: authLimit, open, cookies, meta, tokens, signedIn } = signInKit(config, pageCookie);
  // answers that say whether an address has an account: a budget per client and hour, shared by
  // the two lookups and sign-up's refusal of a taken address (one key per IPv6 /64, where one
  // client holds many addresses)
  const lookups = app.createRateLimit({
    max: config.rateLimit.lookupMax,
    timeWindow: 3600_000,
    keyGenerator: (request) => `lookup|${clientOf(request.ip)}`,
  });
  /** Spends one lookup of the client's budget (`increment: false`: only checks it); 429 when it is spent. */
  async function spendLookup(request: FastifyRequest, increment = true) {
    const budget = await lookups(request, { increment });
    if (budget.isAllowed) return; // an allow-listed client
    if (increment ? budget.isExceeded : budget.remaining === 0) {
      throw new AppError(
        429,
        "RATE_LIMITED",
        "Too many address lookups from this client: try again later",
        undefined,
        { "retry-after": String(Math.max(1, budget.ttlInSeconds)) },
      );
    }
  }
  // sign-in: the address's limit is kept per account typed, so a right password from an address
  // that an attacker shares is not refused for the attacker's guesses at other accounts (the
  // account's own throttle, modules/auth/throttle.ts, counts its guesses from every address)
  const signInLimit = {
    access: access.public,
    rateLimit: {
      max: config.rateLimit.authMax,
      timeWindow: config.rateLimit.windowMs,
      hook: "preValidation" as const,
      keyGenerator: (request: FastifyRequest) => `${request.ip}|${accountOf(request.body)}`,
    },
  };
  const setRefreshCookie = cookies.set;
  const clearRefreshCookie = cookies.clear;

  app.post(
    "/v1/user/self-register",
    {
      config: authLimit,
      schema: {
        tags: ["auth"],
        summary: "Sign up as a learner (role is always CUSTOMER)",
        body: selfRegisterBody,
        response: { 201: selfRegisterResponse, 409: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      // a client whose lookups are spent cannot learn more from "this address is taken"
      await spendLookup(request, false);
      const user = await auth.register(request.body).catch(async (err: unknown) => {
        if (err instanceof AppError && err.code === "EMAIL_TAKEN") await spendLookup(request);
        throw err;
      });
      const pending = user.status === "PENDING";
      return reply.status(201).send({
        message: pending
          ? "Registered Succesfully: check your mailbox to activate your account"
          : "Registered Succesfully",
        data: { id: user.id, email: user.email, status: pending ? "PENDING" : "ACTIVE" },
      });
    },
  );

  app.post(
    "/v1/user/resend-activation",
    {
      config: authLimit,
      schema: { tags: ["auth"], body: resendActivationBody, response: { 200: messageResponse, ...errors } },
    },
    async (request) => {
      auth.resendActivation(request.body.email);
      return { message: "If this account waits for activation, a new link is on its way" };
    },
  );

  app.get(
    "/v1/user/account-activate/:token",
    {
      config: open,
      schema: {
        tags: ["auth"],
        params: z.object({ token: z.string().min(10).max(200) }),
        response: { 200: envelope(z.object({ email: z.string() })), ...errors },
      },
    },
    async (request) => {
      const user = await auth.activate(request.params.token);
      return { message: "Account activated", data: { email: user.email } };
    },
  );

  app.post(
    "/v1/user/authenticate",
    {
      config: signInLimit,
      schema: {
        tags: ["auth"],
        description:
          "When the account has a second factor (or must set one up), `data.secondFactor` comes instead of " +
          "tokens: its ticket goes to `POST /v1/auth/second-factor/verify` (or the setup steps).",
        body: authenticateBody,
        response: { 200: signInResponse, ...errors },
      },
    },
    async (request, reply) => {
      const outcome = await auth.authenticate(request.body.username, request.body.password, meta(request));
      if ("secondFactor" in outcome)
        return { message: "Second factor required", data: { secondFactor: outcome.secondFactor } };
      return signedIn(reply, outcome.tokens);
    },
  );

  app.post(
    "/v1/auth/unlock",
    {
      config: authLimit,
      schema: {
        tags: ["auth"],
        summary: "Unlock an account locked by wrong passwords, with the link mailed to its owner",
        body: tokenBody,
        response: { 200: envelope(z.object({ email: z.string() })), ...errors },
      },
    },
    async (request) => ({
      message: "Account unlocked: you can sign in",
      data: await auth.unlock(request.body.token),
    }),
  );

  app.post(
    "/v1/auth/refresh",
    {
      config: open,
      schema: {
        tags: ["auth"],
        summary: "Rotate the refresh cookie and get a new access token",
        response: { 200: tokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      if (!token) {
        return reply.status(401).send({ statusCode: 401, code: "UNAUTHENTICATED", message: "No session" });
      }
      try {
        const issued = await sessions.refresh(token);
        // a session opened without a second factor ends once its account needs one
        if (!(await secondFactor.sessionAllowed(issued.userId, issued.sessionId))) {
          await sessions.revoke(issued.sessionId, "second_factor_required");
          throw unauthenticated("Sign in again with your second factor", "SECOND_FACTOR_REQUIRED");
        }
        setRefreshCookie(reply, issued);
        return { data: tokens(issued) };
      } catch (err) {
        clearRefreshCookie(reply);
        throw err;
      }
    },
  );

  app.get(
    "/v1/auth/logout",
    {
      config: open,
      schema: {
        tags: ["auth"],
        summary: "End the session: its access and refresh tokens stop working",
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request, reply) => {
      await app.identify(request, reply).catch(() => undefined);
      if (request.sessionId) await sessions.revoke(request.sessionId, "logout");
      const cookie = request.cookies[REFRESH_COOKIE];
      if (cookie) {
        const sessionId = await sessions.sessionOfRefreshToken(cookie);
        if (sessionId) await sessions.revoke(sessionId, "logout");
      }
      clearRefreshCookie(reply);
      return { message: "Logged out" };
    },
  );

  app.post(
    "/v1/auth/forgot-password",
    {
      config: authLimit,
      schema: { tags: ["auth"], querystring: emailQuery, response: { 200: messageResponse, ...errors } },
    },
    async (request) => {
      auth.forgotPassword(request.query.email);
      return { message: "If an account exists for this email, a reset link is on its way" };
    },
  );

  app.post(
    "/v1/user/checkPasswordResetToken",
    {
      config: authLimit,
      schema: { tags: ["auth"], body: tokenBody, response: { 200: tokenValidResponse, ...errors } },
    },
    async (request) => ({ data: await auth.checkResetToken(request.body.token) }),
  );

  const reset = {
    config: authLimit,
    schema: { tags: ["auth"], body: resetPasswordBody, response: { 200: messageResponse, ...errors } },
  };
  const resetHandler = async (request: FastifyRequest<{ Body: z.infer<typeof resetPasswordBody> }>) => {
    await auth.resetPassword(request.body.token, request.body.password);
    return { message: "Password changed: you can log in with the new one" };
  };
  app.post("/v1/user/reset", reset, resetHandler);
  app.post("/v1/auth/reset-forgot-password", reset, resetHandler);

  app.post(
    "/v1/auth/change-password",
    {
      config: { access: access.signedIn },
      schema: {
        tags: ["auth"],
        body: changePasswordBody,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => {
      await auth.changePassword(
        principalOf(request).id,
        sessionOf(request),
        request.body.currentPassword,
        request.body.newPassword,
      );
      return { message: "Password changed" };
    },
  );

  app.post(
    "/v1/validations/email-exists",
    {
      config: authLimit,
      schema: { tags: ["auth"], querystring: emailQuery, response: { 200: existsResponse, ...errors } },
    },
    async (request) => {
      await spendLookup(request);
      return { data: { exists: await users.emailExists(request.query.email) } };
    },
  );
  app.post(
    "/v1/validations/username-exists",
    {
      config: authLimit,
      schema: { tags: ["auth"], querystring: usernameQuery, response: { 200: existsResponse, ...errors } },
    },
    async (request) => {
      await spendLookup(request);
      return { data: { exists: await users.emailExists(request.query.username) } };
    },
  );

  app.get(
    "/v1/auth/providers",
    {
      config: open,
      schema: {
        tags: ["auth"],
        summary: "Social sign-in providers configured on this server",
        response: { 200: envelope(z.object({ providers: z.array(z.string()) })) },
      },
    },
    async () => ({ data: { providers: config.socialProviders } }),
  );
}
