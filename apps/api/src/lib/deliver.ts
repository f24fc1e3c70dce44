import type { FastifyReply, FastifyRequest } from "fastify";
import type { Storage, StoredObject } from "../integrations/storage/storage";
import { AppError, notFound } from "./errors";
import { parseRange } from "./range";

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === bare);
}

interface Validators {
  etag: string;
  lastModified: string;
  /** Last-Modified in ms, at the header's second precision. */
  modifiedMs: number;
}

// Stat results are cached by the storage (see cachedStat), so the same object comes back
// for a while: its header strings are worked out once.
const validatorsOf = new WeakMap<StoredObject, Validators>();
function validators(info: StoredObject): Validators {
  let v = validatorsOf.get(info);
  if (!v) {
    const ms = info.mtime.getTime();
    v = {
      etag: `"${info.size.toString(16)}-${Math.floor(ms).toString(16)}"`,
      lastModified: info.mtime.toUTCString(),
      modifiedMs: Math.floor(ms / 1000) * 1000,
    };
    validatorsOf.set(info, v);
  }
  return v;
}

/**
 * Streams a stored file with validators (ETag, Last-Modified), conditional GET (304),
 * byte ranges (206 / 416) and If-Range. Never buffers the file.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: {
    storage: Storage;
    key: string;
    mime: string;
    cacheControl: string;
    headers?: Record<string, string>;
  },
) {
  const info = await opts.storage.stat(opts.key);
  if (!info) throw notFound("File");
  const { size } = info;
  const { etag, lastModified, modifiedMs } = validators(info);
  reply.headers({
    etag,
    "last-modified": lastModified,
    "cache-control": opts.cacheControl,
    "accept-ranges": "bytes",
    ...opts.headers,
  });

  const { headers } = request;
  const ifNoneMatch = headers["if-none-match"];
  const ifModifiedSince = headers["if-modified-since"];
  const fresh = ifNoneMatch
    ? etagMatches(ifNoneMatch, etag)
    : ifModifiedSince
      ? modifiedMs <= Date.parse(ifModifiedSince)
      : false;
  if (fresh) return reply.code(304).send();

  let range = parseRange(headers.range, size);
  const ifRangeHeader = headers["if-range"];
  const ifRange = typeof ifRangeHeader === "string" ? ifRangeHeader.trim() : undefined;
  if (range.kind !== "none" && ifRange) {
    // an entity tag must match exactly (strong comparison); a date must be the exact Last-Modified
    const matches =
      ifRange.startsWith('"') || ifRange.startsWith("W/")
        ? ifRange === etag
        : Date.parse(ifRange) === modifiedMs;
    if (!matches) range = { kind: "none" };
  }
  if (range.kind === "unsatisfiable") {
    throw new AppError(416, "RANGE_NOT_SATISFIABLE", "Range not satisfiable", undefined, {
      "content-range": `bytes */${size}`,
    });
  }

  reply.header("content-type", opts.mime).header("x-content-type-options", "nosniff");
  if (range.kind === "range") {
    const { start, end } = range;
    reply
      .code(206)
      .header("content-range", `bytes ${start}-${end}/${size}`)
      .header("content-length", end - start + 1);
    if (request.method === "HEAD") return reply.send();
    return reply.send(opts.storage.read(opts.key, { start, end }));
  }
  reply.code(200).header("content-length", size);
  if (request.method === "HEAD") return reply.send();
  return reply.send(opts.storage.read(opts.key));
}
