import { errorResponse } from "@parlons/contract";
import type { FastifySchema, RouteOptions } from "fastify";
import { headOperationId, OPERATION_IDS, summaryOf } from "../lib/operations";
import type { AccessRule } from "./access-rule";

/** A route schema as the OpenAPI document reads it (the zod type provider turns zod into JSON Schema). */
type DocumentedSchema = FastifySchema & {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  consumes?: string[];
  response?: Record<string | number, unknown>;
};

/** OpenAPI: public routes need nothing, every other one the Bearer access token. */
function securityOf(rule: AccessRule) {
  return rule.kind === "public" ? [] : [{ bearer: [] }];
}

function describe(rule: AccessRule): string {
  switch (rule.kind) {
    case "public":
      return rule.identify
        ? "Access: public (a Bearer token, when sent, identifies the caller)."
        : "Access: public.";
    case "signedIn":
      return "Access: signed in.";
    case "permission":
      return `Access: permission \`${rule.slug}\`.`;
    case "owner":
      return `Access: ${rule.policy.description}.`;
  }
}

/** A kept read (plugins/kept-reads.ts) in words: whose answer, and which changes drop it. */
function describeKept(route: RouteOptions): string | undefined {
  const keep = route.config?.keep;
  if (!keep) return undefined;
  const reader = keep.per === "reader";
  const changes = [
    ...keep.droppedBy,
    ...(reader ? ["roles", "plans", "the reader's account"] : []),
    ...(keep.droppedByReader ?? []).map((topic) => `the reader's ${topic}`),
  ];
  return `Kept in memory (${reader ? "per reader" : "one answer for everyone"}) until a change to ${changes.join(", ")}${keep.period ? ", or the end of its period" : ""}; ETag, 304 on If-None-Match.`;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The error statuses a route can answer, from its access rule and its nature, in the shared
 * error envelope:
 * - 400 always (a malformed URL or path parameter; a body that is not JSON);
 * - 401 when the rule reads a token (signed in, permission, owner, or a public route that
 *   identifies its caller: a bad token is refused);
 * - 403 for a permission, or an owner policy that denies with 403;
 * - 404 for an owner policy that hides others' objects, and any route naming an object in its path;
 * - 413 and 415 when the request carries a body (too large; a content type no parser takes);
 * - 422 when a body or a query string is validated;
 * - 429 when the route is rate limited.
 * A module adds its domain ones (409 conflicts, 502 provider failures, 403 of a handler...).
 */
function derivedErrorStatuses(route: RouteOptions, rule: AccessRule): number[] {
  const schema = (route.schema ?? {}) as DocumentedSchema;
  const methods = ([] as string[]).concat(route.method);
  const statuses = new Set<number>([400]);
  if (rule.kind !== "public" || rule.identify) statuses.add(401);
  if (rule.kind === "permission" || (rule.kind === "owner" && rule.policy.denied === 403)) statuses.add(403);
  if ((rule.kind === "owner" && rule.policy.denied !== 403) || schema.params !== undefined) statuses.add(404);
  if (methods.some((m) => !READS.has(m))) {
    statuses.add(413);
    statuses.add(415);
  }
  if (schema.body !== undefined || schema.querystring !== undefined) statuses.add(422);
  if (route.config && "rateLimit" in route.config && route.config.rateLimit) statuses.add(429);
  return [...statuses];
}

/**
 * The operation's name: the route schema's own `operationId`, else the table's; the HEAD twin
 * Fastify adds to a GET is named after it.
 */
function operationIdOf(route: RouteOptions): string {
  const methods = ([] as string[]).concat(route.method);
  const first = methods[0] ?? "GET";
  const headTwin = methods.length === 1 && first === "HEAD";
  const id =
    (route.schema as DocumentedSchema | undefined)?.operationId ??
    OPERATION_IDS[`${headTwin ? "GET" : first} ${route.url}`];
  if (!id) {
    throw new Error(
      `${first} ${route.url} has no operationId: name it in apps/api/src/lib/operations.ts (e.g. "listActiveCourses")`,
    );
  }
  return headTwin ? headOperationId(id) : id;
}

/**
 * Documents a route of the API in place: its operationId and English summary, its security
 * and access in words, and every error status it can answer. A fresh schema object per route
 * (several routes may share one options object). `taken` holds the names already given.
 * Returns the operationId.
 */
export function documentOperation(route: RouteOptions, rule: AccessRule, taken: Set<string>): string {
  const schema = { ...((route.schema ?? {}) as DocumentedSchema) };
  const operationId = operationIdOf(route);
  if (taken.has(operationId)) throw new Error(`operationId ${operationId} given twice (at ${route.url})`);
  taken.add(operationId);
  const response: Record<string | number, unknown> = { ...schema.response };
  for (const status of derivedErrorStatuses(route, rule)) response[status] ??= errorResponse;
  route.schema = Object.assign(schema, {
    operationId,
    summary: schema.summary ?? summaryOf(operationId),
    security: securityOf(rule),
    description: [describe(rule), describeKept(route), schema.description].filter(Boolean).join(" "),
    response,
  });
  return operationId;
}
