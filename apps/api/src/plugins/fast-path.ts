import type { IncomingMessage, ServerResponse } from "node:http";
import { type CachedBody, JSON_TYPE, notModified } from "../lib/response-cache";
import { SANE_REQUEST_ID } from "./request-id";
import type { HeaderList } from "./security-headers";

/** A kept body with what the fast path sends with it. */
export interface FastAnswer extends CachedBody {
  /** The route's Cache-Control for it. */
  cacheControl: string;
  /** For /metrics: `public` (answers for everyone) or the read's name. */
  name: string;
}

/**
 * Answers the hottest reads before Fastify routes the request, when their body is in memory:
 * the kept reads (plugins/kept-reads.ts) of a URL answered before: those for everyone (course
 * lists, course pages, active plans, settings) and those per reader (a signed-in learner's
 * lesson list, whose token, session and plan are then known from memory:
 * modules/auth/principal-cache.ts).
 * Everything else goes through Fastify as usual, so every error (a bad or revoked token, an
 * unknown course) is the route's own answer.
 * The response is the one the route sends: same status, body, ETag, 304, and security headers.
 * Not logged per request (logs at debug would be the place, and they cost what the shortcut
 * saves). Counted in plain numbers (`stats`) that /metrics reads when scraped: no metric call here.
 */
export function createFastPath(deps: {
  /** The kept answer of a GET under /api/v1/, when it is in memory now. */
  read: (req: IncomingMessage, url: string) => FastAnswer | undefined;
  headers: () => HeaderList | undefined;
}) {
  // the raw header array of each body, for the security headers in force (recomputed when they change)
  const prepared = new WeakMap<FastAnswer, { list: HeaderList; ok: string[]; notModified: string[] }>();

  function headersOf(cached: FastAnswer, list: HeaderList) {
    let entry = prepared.get(cached);
    if (entry?.list !== list) {
      const common: string[] = [...list.flat(), "etag", cached.etag, "cache-control", cached.cacheControl];
      entry = {
        list,
        ok: [...common, "content-type", JSON_TYPE, "content-length", String(cached.length)],
        notModified: common,
      };
      prepared.set(cached, entry);
    }
    return entry;
  }

  const stats = { ok: 0, notModified: 0, byRead: {} as Record<string, number> };
  /** True when the request was answered here. */
  function answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "GET") return false;
    const url = req.url;
    if (url === undefined || !url.startsWith("/api/v1/")) return false;
    const cached = deps.read(req, url);
    if (!cached) return false;
    const list = deps.headers();
    if (!list) return false;
    const headers = headersOf(cached, list);
    stats.byRead[cached.name] = (stats.byRead[cached.name] ?? 0) + 1;
    // no log line here, so no request id of its own; a caller's (sane) one is sent back as elsewhere
    const id = req.headers["x-request-id"];
    const withId = (h: string[]) =>
      typeof id === "string" && SANE_REQUEST_ID.test(id) ? [...h, "x-request-id", id] : h;
    if (notModified(req.headers["if-none-match"], cached.etag)) {
      stats.notModified += 1;
      res.writeHead(304, id === undefined ? headers.notModified : withId(headers.notModified));
      res.end();
    } else {
      stats.ok += 1;
      res.writeHead(200, id === undefined ? headers.ok : withId(headers.ok));
      res.end(cached.body);
    }
    return true;
  }
  return Object.assign(answer, { stats });
}
