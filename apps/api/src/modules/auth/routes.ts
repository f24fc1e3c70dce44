import {
  authenticateBody,
  changePasswordBody,
  emailQuery,
  envelope,
  errorResponse,
  existsResponse,
  messageResponse,
  resendActivationBody,
  resetPasswordBody,
  selfRegisterBody,
  selfRegisterResponse,
  tokenBody,
  tokenResponse,
  tokenValidResponse,
  usernameQuery,
} from "@parlons/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/route-schemas";
import { principalOf, sessionOf } from "../../plugins/auth";
import type { IssuedTokens } from "./session-service";

export const REFRESH_COOKIE = "auth.refresh";
const errors = errorResponses(400, 401, 403, 422, 429);

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, sessions, users } = app.deps.services;
  const { config } = app.deps;
  const authLimit = { rateLimit: { max: config.rateLimit.authMax, timeWindow: config.rateLimit.windowMs } };
  const cookiePath = "/api/v1/auth";

  function setRefreshCookie(reply: FastifyReply, token: string) {
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: "lax",
      secure: config.secureCookies,
      path: cookiePath,
      maxAge: config.refreshTokenTtl,
    });
  }
  const clearRefreshCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
  const meta = (request: FastifyRequest) => ({ userAgent: request.headers["user-agent"], ip: request.ip });
  const tokens = (t: IssuedTokens) => ({ accessToken: t.accessToken, expiresIn: t.expiresIn });

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
      const user = await auth.register(request.body);
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
      await auth.resendActivation(request.body.email);
      return { message: "If this account waits for activation, a new link is on its way" };
    },
  );

  app.get(
    "/v1/user/account-activate/:token",
    {
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
      config: authLimit,
      schema: { tags: ["auth"], body: authenticateBody, response: { 200: tokenResponse, ...errors } },
    },
    async (request, reply) => {
      const { tokens: issued } = await auth.authenticate(
        request.body.username,
        request.body.password,
        meta(request),
      );
      setRefreshCookie(reply, issued.refreshToken);
      return { message: "Logged in successfully", data: tokens(issued) };
    },
  );

  app.post(
    "/v1/auth/refresh",
    {
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
        setRefreshCookie(reply, issued.refreshToken);
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
      await auth.forgotPassword(request.query.email);
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
      preHandler: app.authenticate,
      schema: {
        tags: ["auth"],
        security: [{ bearer: [] }],
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
    async (request) => ({ data: { exists: await users.emailExists(request.query.email) } }),
  );
  app.post(
    "/v1/validations/username-exists",
    {
      config: authLimit,
      schema: { tags: ["auth"], querystring: usernameQuery, response: { 200: existsResponse, ...errors } },
    },
    async (request) => ({ data: { exists: await users.emailExists(request.query.username) } }),
  );

  app.get(
    "/v1/auth/providers",
    {
      schema: {
        tags: ["auth"],
        summary: "Social sign-in providers configured on this server",
        response: { 200: envelope(z.object({ providers: z.array(z.string()) })) },
      },
    },
    async () => ({ data: { providers: config.socialProviders } }),
  );
}
