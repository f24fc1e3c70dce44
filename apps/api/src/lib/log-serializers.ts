import type { FastifyRequest } from "fastify";

/** Query parameters whose values are credentials: sign-in tickets, provider tokens, OAuth codes. */
const SECRET_PARAMS = /([?&](?:token|code|state|id_token|access_token)=)[^&#]*/gi;

/** A URL as it may be logged: the values of credential-carrying query parameters are hidden. */
export function scrubUrl(url: string): string {
  return url.replace(SECRET_PARAMS, "$1[redacted]");
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
