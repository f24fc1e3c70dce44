import {
  deviceSessionParams,
  deviceSessionsResponse,
  endedSessionsResponse,
  messageResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf, sessionOf } from "../../plugins/auth";

const tags = ["auth"];
const errors = errorResponses(401, 403);

/** "Where you are signed in" in the profile: the caller's sessions (device-sessions.ts). */
export default async function deviceSessionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deviceSessions } = app.deps.services;
  const mine = { access: access.signedIn };

  app.get(
    "/v1/user/me/sessions",
    {
      config: mine,
      schema: {
        tags,
        summary: "Where I am signed in: my live sessions, device, address network, last seen",
        response: { 200: deviceSessionsResponse, ...errors },
      },
    },
    async (request) => ({
      data: await deviceSessions.list(principalOf(request).id, sessionOf(request)),
    }),
  );

  app.delete(
    "/v1/user/me/sessions/:id",
    {
      config: mine,
      schema: {
        tags,
        summary: "Sign one of my sessions out: its tokens stop working at once",
        description: "404 when the session is not the caller's or has already ended.",
        params: deviceSessionParams,
        response: { 200: messageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      await deviceSessions.end(principalOf(request).id, request.params.id);
      return { message: "Session ended" };
    },
  );

  app.post(
    "/v1/user/me/sessions/end-others",
    {
      config: mine,
      schema: {
        tags,
        summary: "Sign out everywhere else: every session of mine but this one ends",
        response: { 200: endedSessionsResponse, ...errors },
      },
    },
    async (request) => ({
      message: "Other sessions ended",
      data: { ended: await deviceSessions.endOthers(principalOf(request).id, sessionOf(request)) },
    }),
  );
}
