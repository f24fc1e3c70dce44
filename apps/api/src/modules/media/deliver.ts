import type { FastifyReply, FastifyRequest } from "fastify";
import type { Storage } from "../../integrations/storage/storage";
import { AppError, notFound } from "../../lib/errors";
import { parseRange } from "./range";

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === bare);
}

function notModifiedSince(header: string, mtime: Date): boolean {
  const since = Date.parse(header);
  // Last-Modified has second precision
  return Number.isFinite(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
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
  const { size, mtime } = info;
  const etag = `"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`;
  const validators = {
    etag,
    "last-modified": mtime.toUTCString(),
    "cache-control": opts.cacheControl,
    "accept-ranges": "bytes",
    ...opts.headers,
  };

  const ifNoneMatch = request.headers["if-none-match"];
  const ifModifiedSince = request.headers["if-modified-since"];
  const fresh = ifNoneMatch
    ? etagMatches(ifNoneMatch, etag)
    : ifModifiedSince
      ? notModifiedSince(ifModifiedSince, mtime)
      : false;
  if (fresh) return reply.code(304).headers(validators).send();

  let range = parseRange(request.headers.range, size);
  const ifRangeHeader = request.headers["if-range"];
  const ifRange = typeof ifRangeHeader === "string" ? ifRangeHeader.trim() : undefined;
  if (range.kind !== "none" && ifRange) {
    // an entity tag must match exactly; a date must be the exact Last-Modified
    const matches =
      ifRange.startsWith('"') || ifRange.startsWith("W/")
        ? ifRange === etag
        : Date.parse(ifRange) === Math.floor(mtime.getTime() / 1000) * 1000;
    if (!matches) range = { kind: "none" };
  }
  if (range.kind === "unsatisfiable") {
    throw new AppError(416, "RANGE_NOT_SATISFIABLE", "Range not satisfiable", undefined, {
      "content-range": `bytes */${size}`,
      "accept-ranges": "bytes",
    });
  }

  reply.headers(validators).header("content-type", opts.mime).header("x-content-type-options", "nosniff");
  if (range.kind === "range") {
    const { start, end } = range;
    reply
      .code(206)
      .header("content-range", `bytes ${start}-${end}/${size}`)
      .header("content-length", String(end - start + 1));
    if (request.method === "HEAD") return reply.send();
    return reply.send(opts.storage.read(opts.key, { start, end }));
  }
  reply.code(200).header("content-length", String(size));
  if (request.method === "HEAD") return reply.send();
  return reply.send(opts.storage.read(opts.key));
}
