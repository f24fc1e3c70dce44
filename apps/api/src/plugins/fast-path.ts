import type { IncomingMessage, ServerResponse } from "node:http";
import {
  CACHE_CONTROL,
  type CachedBody,
  JSON_TYPE,
  notModified,
  type ResponseCache,
} from "../lib/response-cache";
import type { HeaderList } from "./security-headers";

/**
 * Answers the hottest public reads (course lists, course pages, active plans, settings) before
 * Fastify routes the request, when the exact URL was answered before and its body is in memory.
 * Everything else (and anything with an Authorization header) goes through Fastify as usual.
 * The response is the one the route sends: same status, body, ETag, 304, and security headers.
 * Not logged per request: these are anonymous reads of public data (logs at debug would be the
 * place, and they cost what the shortcut saves).
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

  /** True when the request was answered here. */
  return function answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "GET" || req.headers.authorization !== undefined) return false;
    const url = req.url;
    if (url === undefined || !url.startsWith("/api/v1/")) return false;
    const cached = deps.cache.peekUrl(url);
    if (!cached) return false;
    const list = deps.headers();
    if (!list) return false;
    const headers = headersOf(cached, list);
    if (notModified(req.headers["if-none-match"], cached.etag)) {
      res.writeHead(304, headers.notModified);
      res.end();
    } else {
      res.writeHead(200, headers.ok);
      res.end(cached.body);
    }
    return true;
  };
}
