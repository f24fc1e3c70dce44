import type { FastifyRequest } from "fastify";

/**
 * Query parameters whose values are credentials: sign-in tickets, provider tokens, OAuth codes,
 * signatures of file URLs (a podcast episode's lives as long as its feed).
 */
const SECRET_PARAMS = /([?&](?:token|code|state|id_token|access_token|sig)=)[^&#]*/gi;
/** Path segments that are credentials: the secret of a learner's podcast feed, valid until rotated. */
const SECRET_PATHS = /(\/podcast\/feed\/)[^/?#]+/g;

/** A URL as it may be logged: the values of credential-carrying query parameters and paths are hidden. */
export function scrubUrl(url: string): string {
  return url.replace(SECRET_PARAMS, "$1[redacted]").replace(SECRET_PATHS, "$1[redacted]");
}

/** Fastify's request log line, minus the secrets of the query string. */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: scrubUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
