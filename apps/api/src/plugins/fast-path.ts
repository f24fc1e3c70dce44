import type { IncomingMessage, ServerResponse } from "node:http";
import {
  CACHE_CONTROL,
  type CachedBody,
  JSON_TYPE,
  notModified,
  type ResponseCache,
} from "../lib/response-cache";
import { SANE_REQUEST_ID } from "./request-id";
import type { HeaderList } from "./security-headers";

/**
 * Answers the hottest public reads (course lists, course pages, active plans, settings) before
 * Fastify routes the request, when the exact URL was answered before and its body is in memory.
 * Everything else (and anything with an Authorization header) goes through Fastify as usual.
 * The response is the one the route sends: same status, body, ETag, 304, and security headers.
 * Not logged per request: these are anonymous reads of public data (logs at debug would be the
 * place, and they cost what the shortcut saves). Counted in two plain numbers (`stats`) that
 * /metrics reads when scraped: no metric call on this path.
 */
export function createFastPath(deps: { cache: ResponseCache; headers: () => HeaderList | undefined }) {
  // the raw header array of each body, for the security headers in force (recomputed when they change)
  const prepared = new WeakMap<CachedBody, { list: HeaderList; ok: string[]; notModified: string[] }>();

  function headersOf(cached: CachedBody, list: HeaderList) {
    let entry = prepared.get(cached);
    if (entry?.list !== list) {
      const common: string[] = list.flat();
      entry = {
        list,
        ok: [
          ...common,
          "etag",
          cached.etag,
          "cache-control",
          CACHE_CONTROL,
          "content-type",
          JSON_TYPE,
          "content-length",
          String(cached.body.length),
        ],
        notModified: [...common, "etag", cached.etag, "cache-control", CACHE_CONTROL],
      };
      prepared.set(cached, entry);
    }
    return entry;
  }

  const stats = { ok: 0, notModified: 0 };
  /** True when the request was answered here. */
  function answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "GET" || req.headers.authorization !== undefined) return false;
    const url = req.url;
    if (url === undefined || !url.startsWith("/api/v1/")) return false;
    const cached = deps.cache.peekUrl(url);
    if (!cached) return false;
    const list = deps.headers();
    if (!list) return false;
    const headers = headersOf(cached, list);
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
