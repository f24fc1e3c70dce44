import type { IncomingMessage, ServerResponse } from "node:http";
import { type CachedBody, type FastRead, JSON_TYPE, notModified } from "../lib/response-cache";
import { SANE_REQUEST_ID } from "./request-id";
import type { HeaderList } from "./security-headers";

/**
 * Answers the hottest reads before Fastify routes the request, when their body is in memory:
 * the public reads (course lists, course pages, active plans, settings) for a URL answered
 * before, and the reads each route registers (the lesson list of a signed-in learner, whose
 * token, session and plan are then known from memory: modules/auth/principal-cache.ts).
 * Everything else goes through Fastify as usual, so every error (a bad or revoked token, an
 * unknown course) is the route's own answer.
 * The response is the one the route sends: same status, body, ETag, 304, and security headers.
 * Not logged per request (logs at debug would be the place, and they cost what the shortcut
 * saves). Counted in plain numbers (`stats`) that /metrics reads when scraped: no metric call here.
 */
export function createFastPath(deps: {
  /** Tried in order; routes may add theirs after the fast path is made. */
  reads: readonly FastRead[];
  headers: () => HeaderList | undefined;
}) {
  // the raw header array of each body, for the security headers in force (recomputed when they change)
  const prepared = new WeakMap<CachedBody, { list: HeaderList; ok: string[]; notModified: string[] }>();

  function headersOf(cached: CachedBody, list: HeaderList, cacheControl: string) {
    let entry = prepared.get(cached);
    if (entry?.list !== list) {
      const common: string[] = [...list.flat(), "etag", cached.etag, "cache-control", cacheControl];
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
    let cached: CachedBody | undefined;
    let read: FastRead | undefined;
    for (read of deps.reads) {
      cached = read.read(req, url);
      if (cached) break;
    }
    if (!cached || !read) return false;
    const list = deps.headers();
    if (!list) return false;
    const headers = headersOf(cached, list, read.cacheControl);
    stats.byRead[read.name] = (stats.byRead[read.name] ?? 0) + 1;
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
