import type { FastifyReply } from "fastify";
import type { Config } from "../../config";
import { PAGE_COOKIE } from "../../lib/page-cookie";
import type { IssuedTokens } from "./session-service";

export const REFRESH_COOKIE = "auth.refresh";
const REFRESH_PATH = "/api/v1/auth";

/** The refresh cookie (scoped to the auth routes) and the page cookie that every new session sets. */
export function sessionCookies(
  config: Pick<Config, "secureCookies" | "refreshTokenTtl">,
  pageCookie: { value(sessionId: string): string },
) {
  return {
    set(reply: FastifyReply, issued: IssuedTokens) {
      const options = {
        httpOnly: true,
        sameSite: "lax" as const,
        secure: config.secureCookies,
        maxAge: config.refreshTokenTtl,
      };
      reply.setCookie(REFRESH_COOKIE, issued.refreshToken, { ...options, path: REFRESH_PATH });
      reply.setCookie(PAGE_COOKIE, pageCookie.value(issued.sessionId), { ...options, path: "/" });
    },
    clear(reply: FastifyReply) {
      reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_PATH });
      reply.clearCookie(PAGE_COOKIE, { path: "/" });
    },
  };
}
