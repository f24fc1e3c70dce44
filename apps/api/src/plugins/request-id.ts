import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** An incoming X-Request-Id kept as it is: short, and only characters safe in a log and a header. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when it is sane (a proxy or a client that traces
 * its calls), a new UUID otherwise. Fastify puts it on every log line of the request (`reqId`),
 * and plugins/metrics.ts sends it back in `X-Request-Id`.
 */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
