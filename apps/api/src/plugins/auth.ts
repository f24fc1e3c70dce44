import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { unauthenticated } from "../lib/errors";
import type { Principal } from "../lib/principal";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `app.authenticate`: the signed-in user and their permissions. */
    principal: Principal | null;
    sessionId: string | null;
  }
  interface FastifyInstance {
    /** Requires a valid access token of a live session of an active user (the access rules call it). */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Like authenticate, but lets anonymous requests through with principal null. */
    identify: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The signed-in principal of a request that went through `authenticate`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}

export function sessionOf(request: FastifyRequest): string {
  if (!request.sessionId) throw unauthenticated();
  return request.sessionId;
}

export default fp(
  async (app: FastifyInstance) => {
    const { principals, lastSeen } = app.deps.services;
    app.decorateRequest("principal", null);
    app.decorateRequest("sessionId", null);

    async function resolve(request: FastifyRequest, required: boolean) {
      const header = request.headers.authorization;
      if (!header) {
        if (required) throw unauthenticated();
        return;
      }
      const [scheme, token] = header.split(" ");
      if (scheme?.toLowerCase() !== "bearer" || !token)
        throw unauthenticated("Use a Bearer token", "TOKEN_INVALID");
      // token, live session, status, roles and permissions: from memory after the first request,
      // dropped in every process by revocations and changes (modules/auth/principal-cache.ts)
      const { principal, sessionId } = await principals.resolve(token);
      request.principal = principal;
      request.sessionId = sessionId;
      // "last seen" of the session, written at most every few minutes (modules/auth/last-seen.ts)
      lastSeen.touch(sessionId);
    }

    app.decorate("authenticate", async (request: FastifyRequest) => resolve(request, true));
    app.decorate("identify", async (request: FastifyRequest) => resolve(request, false));
  },
  { name: "auth", dependencies: ["deps"] },
);
