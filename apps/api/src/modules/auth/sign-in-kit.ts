import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { sessionCookies } from "./session-cookies";
import type { IssuedTokens } from "./session-service";

/**
 * What the auth route files share (sign-in, second factor, passkeys, social sign-in): their route
 * configs, the request's client, and the answer that opens a session.
 */
export function signInKit(
  config: Pick<Config, "secureCookies" | "refreshTokenTtl" | "rateLimit">,
  pageCookie: { value(sessionId: string): string },
) {
  const cookies = sessionCookies(config, pageCookie);
  const tokens = (issued: IssuedTokens) => ({ accessToken: issued.accessToken, expiresIn: issued.expiresIn });
  return {
    cookies,
    /**
     * A public step of signing in, limited per client (each account's attempts are counted too, by
     * the services: this only slows one client down).
     */
    step: {
      access: access.public,
      rateLimit: { max: config.rateLimit.authMax, timeWindow: config.rateLimit.windowMs },
    },
    open: { access: access.public },
    /** The caller's own account. */
    mine: { access: access.signedIn },
    userOf: (request: FastifyRequest) => principalOf(request).id,
    meta: (request: FastifyRequest) => ({ userAgent: request.headers["user-agent"], ip: request.ip }),
    tokens,
    /** Sets the new session's cookies and answers its access token (with `extra` beside it). */
    signedIn<T extends object = object>(reply: FastifyReply, issued: IssuedTokens, extra?: T) {
      cookies.set(reply, issued);
      return { message: "Logged in successfully", data: { ...tokens(issued), ...(extra as T) } };
    },
  };
}
