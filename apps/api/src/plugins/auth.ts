import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { unauthenticated } from "../lib/errors";
import type { AppServices } from "../lib/module";
import type { Principal } from "../lib/principal";

/** What a reader's plan opens (as the principal cache tells it). */
type Access = NonNullable<ReturnType<AppServices["principals"]["peekAccess"]>>;

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
    /**
     * The signed-in reader of an `Authorization` header when their token, live session, account
     * and what their plan opens are all in memory now and valid: for the answers before routing
     * (plugins/kept-reads.ts), which leave every other case (no such token, another scheme, a
     * refusal) to the route. Never throws, never waits.
     */
    readerFromMemory: (authorization: string) => { principal: Principal; access: Access } | undefined;
  }
}

/**
 * The token of an `Authorization` header, the one place it is read: `Bearer <token>`, the scheme
 * in any case (RFC 9110 §11.1); null for anything else. `exact` takes only the usual spelling,
 * `Bearer ` then the token (the answers before routing leave any other to the route).
 */
export function bearerToken(header: string, exact = false): string | null {
  if (exact) return header.startsWith("Bearer ") ? header.slice(7) : null;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : null;
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
      const token = bearerToken(header);
      if (token === null) throw unauthenticated("Use a Bearer token", "TOKEN_INVALID");
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
    app.decorate("readerFromMemory", (authorization: string) => {
      const token = bearerToken(authorization, true);
      const found = token === null ? undefined : principals.peek(token);
      if (!found) return undefined;
      const access = principals.peekAccess(found.principal);
      if (access === undefined) return undefined;
      lastSeen.touch(found.sessionId);
      return { principal: found.principal, access };
    });
  },
  { name: "auth", dependencies: ["deps"] },
);
