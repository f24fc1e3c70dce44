import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake S3 for tests: an HTTP server on 127.0.0.1 speaking the object calls of the real API on
 * path-style URLs (`/{bucket}/{key}`): PUT, GET (with Range → 206 + Content-Range, 416
 * InvalidRange), HEAD and DELETE, answering S3's XML error bodies. Every request must carry a
 * SigV4 Authorization header, which is checked the way S3 does: the canonical request is rebuilt
 * and signed again with the known secret; the payload is either a SHA-256 (checked against the
 * bytes received: XAmzContentSHA256Mismatch) or UNSIGNED-PAYLOAD. Controls let a test make the
 * next answers fail (5xx) or never come.
 *
 * (s3rver, the usual npm fake, accepts any SigV4 signature: it does not compute them.)
 */

interface FakeS3Object {
  body: Buffer;
  etag: string;
  lastModified: Date;
  contentType: string;
}

interface FakeS3Request {
  method: string;
  path: string;
  status: number;
  contentSha256: string | undefined;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
  range: string | undefined;
}

export interface FakeS3 {
  url: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stored objects by `bucket/key`. */
  objects: Map<string, FakeS3Object>;
  /** Every request answered, oldest first. */
  requests: FakeS3Request[];
  /** The next `count` requests are answered `status` (500 InternalError, 503 SlowDown…). */
  failNext(status: number, count?: number): void;
  /** The next `count` requests get no answer at all (until close). */
  stallNext(count?: number): void;
  close(): Promise<void>;
}

const EMPTY_SHA256 = createHash("sha256").update("").digest("hex");
const MAX_BODY = 200 * 1024 * 1024;
const SKEW_MS = 15 * 60 * 1000;

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** S3's URI encoding: everything but unreserved characters, %XX upper case. */
const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac("sha256", key).update(data, "utf8").digest();
}

interface Signed {
  payloadHash: string;
}

/** Checks the SigV4 Authorization header of a request; throws S3's error when it does not hold. */
function verifySignature(
  req: IncomingMessage,
  rawPath: string,
  rawQuery: string,
  creds: { accessKeyId: string; secretAccessKey: string; region: string },
): Signed {
  const authorization = req.headers.authorization;
  if (!authorization) throw new S3Failure(403, "AccessDenied", "Access Denied");
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) {
    throw new S3Failure(400, "AuthorizationHeaderMalformed", "The authorization header is malformed.");
  }
  const [, accessKeyId, date, region, service, signedHeaderList, signature] = match as unknown as string[];
  if (accessKeyId !== creds.accessKeyId) {
    throw new S3Failure(
      403,
      "InvalidAccessKeyId",
      "The AWS Access Key Id you provided does not exist in our records.",
      { AWSAccessKeyId: String(accessKeyId) },
    );
  }
  if (region !== creds.region) {
    throw new S3Failure(
      400,
      "AuthorizationHeaderMalformed",
      `The authorization header is malformed; the region '${region}' is wrong; expecting '${creds.region}'`,
      { Region: creds.region },
    );
  }
  if (service !== "s3") {
    throw new S3Failure(400, "AuthorizationHeaderMalformed", `The service '${service}' is wrong.`);
  }
  const amzDate = req.headers["x-amz-date"];
  const dateMatch =
    typeof amzDate === "string" ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate) : null;
  if (!dateMatch || typeof amzDate !== "string") {
    throw new S3Failure(403, "AccessDenied", "AWS authentication requires a valid Date or x-amz-date header");
  }
  if (amzDate.slice(0, 8) !== date) {
    throw new S3Failure(
      403,
      "SignatureDoesNotMatch",
      "The credential date does not match the date of the request.",
    );
  }
  const [, y, mo, d, h, mi, s] = dateMatch.map(Number) as number[];
  const when = Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s);
  if (Math.abs(Date.now() - when) > SKEW_MS) {
    throw new S3Failure(
      403,
      "RequestTimeTooSkewed",
      "The difference between the request time and the current time is too large.",
    );
  }
  const payloadHash = req.headers["x-amz-content-sha256"];
  if (typeof payloadHash !== "string") {
    throw new S3Failure(
      400,
      "InvalidRequest",
      "Missing required header for this request: x-amz-content-sha256",
    );
  }
  if (payloadHash.startsWith("STREAMING-")) {
    throw new S3Failure(501, "NotImplemented", "The fake does not take aws-chunked uploads.");
  }
  if (payloadHash !== "UNSIGNED-PAYLOAD" && !/^[0-9a-f]{64}$/.test(payloadHash)) {
    throw new S3Failure(
      400,
      "InvalidArgument",
      "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-… or a valid sha256 value.",
    );
  }
  const signedHeaders = String(signedHeaderList).split(";");
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"]) {
    if (!signedHeaders.includes(required)) {
      throw new S3Failure(403, "AccessDenied", `The header ${required} must be signed.`);
    }
  }

  const canonicalUri = rawPath
    .split("/")
    .map((segment) => uriEncode(safeDecode(segment)))
    .join("/");
  const canonicalQuery = rawQuery
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const [k = "", v = ""] = pair.split("=");
      return [uriEncode(safeDecode(k.replace(/\+/g, " "))), uriEncode(safeDecode(v.replace(/\+/g, " ")))];
    })
    .sort(([k1 = "", v1 = ""], [k2 = "", v2 = ""]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(",") : (value ?? "");
      return `${name}:${text.trim().replace(/\s+/g, " ")}\n`;
    })
    .join("");
  const canonicalRequest = [
    req.method ?? "",
    canonicalUri,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(";"),
    payloadHash,
  ].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    amzDate,
    scope,
    createHash("sha256").update(canonicalRequest, "utf8").digest("hex"),
  ].join("\n");
  const kDate = hmac(`AWS4${creds.secretAccessKey}`, String(date));
  const kSigning = hmac(hmac(hmac(kDate, creds.region), "s3"), "aws4_request");
  const expected = hmac(kSigning, stringToSign);
  if (!timingSafeEqual(expected, Buffer.from(String(signature), "hex"))) {
    throw new S3Failure(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
      { AWSAccessKeyId: String(accessKeyId), StringToSign: stringToSign, CanonicalRequest: canonicalRequest },
    );
  }
  return { payloadHash };
}

/** Reads the whole body (S3 answers only after it), with its SHA-256. */
async function readBody(req: IncomingMessage): Promise<{ body: Buffer; sha256: string; tooLarge: boolean }> {
  const hash = createHash("sha256");
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    hash.update(buf);
    if (size > MAX_BODY) tooLarge = true;
    else chunks.push(buf);
  }
  return { body: Buffer.concat(chunks), sha256: hash.digest("hex"), tooLarge };
}

/** S3's reading of a Range header: one byte range, or null to send the whole object. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "invalid" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, a = "", b = ""] = m;
  if (a === "" && b === "") return null;
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0) return "invalid";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (b !== "" && Number(b) < start) return null;
  if (start >= size) return "invalid";
  return { start, end };
}

export async function startFakeS3(
  opts: { region?: string; bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<FakeS3> {
  const creds = {
    region: opts.region ?? "us-east-1",
    accessKeyId: opts.accessKeyId ?? "FAKEACCESSKEY",
    secretAccessKey: opts.secretAccessKey ?? `fake-secret-${randomBytes(12).toString("hex")}`,
  };
  const bucket = opts.bucket ?? "parlons-test";
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3Request[] = [];
  let failures: { status: number; count: number } | null = null;
  let stalls = 0;

  function sendError(res: ServerResponse, method: string, resource: string, failure: S3Failure) {
    const requestId = randomBytes(8).toString("hex").toUpperCase();
    res.statusCode = failure.status;
    res.setHeader("x-amz-request-id", requestId);
    if (method === "HEAD") return res.end();
    const extra = Object.entries(failure.extra)
      .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
      .join("");
    res.setHeader("content-type", "application/xml");
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${failure.code}</Code><Message>${xmlEscape(failure.message)}</Message>${extra}<Resource>${xmlEscape(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`,
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const [rawPath = "/", rawQuery = ""] = (req.url ?? "/").split("?", 2);
    const { body, sha256, tooLarge } = await readBody(req);
    if (stalls > 0) {
      stalls -= 1;
      return; // never answered; the socket is closed with the server
    }
    if (failures && failures.count > 0) {
      failures.count -= 1;
      const { status } = failures;
      throw new S3Failure(
        status,
        status === 503 ? "SlowDown" : "InternalError",
        status === 503
          ? "Please reduce your request rate."
          : "We encountered an internal error. Please try again.",
      );
    }
    const { payloadHash } = verifySignature(req, rawPath, rawQuery, creds);
    if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256) {
      throw new S3Failure(
        400,
        "XAmzContentSHA256Mismatch",
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
        { ClientComputedContentSHA256: payloadHash, S3ComputedContentSHA256: sha256 },
      );
    }
    const segments = rawPath.split("/").slice(1);
    const bucketName = safeDecode(segments[0] ?? "");
    const key = segments.slice(1).map(safeDecode).join("/");
    if (bucketName !== bucket) {
      throw new S3Failure(404, "NoSuchBucket", "The specified bucket does not exist", {
        BucketName: bucketName,
      });
    }
    if (!key || rawQuery) {
      throw new S3Failure(
        501,
        "NotImplemented",
        "The fake only knows PUT, GET, HEAD and DELETE of an object.",
      );
    }
    const id = `${bucketName}/${key}`;

    if (method === "PUT") {
      const declared = req.headers["content-length"];
      if (declared === undefined) {
        throw new S3Failure(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
      }
      if (tooLarge)
        throw new S3Failure(400, "EntityTooLarge", "Your proposed upload exceeds the fake's limit.");
      if (Number(declared) !== body.length) {
        throw new S3Failure(
          400,
          "IncompleteBody",
          "You did not provide the number of bytes specified by the Content-Length HTTP header.",
        );
      }
      const etag = `"${createHash("md5").update(body).digest("hex")}"`;
      objects.set(id, {
        body,
        etag,
        // S3 keeps seconds
        lastModified: new Date(Math.floor(Date.now() / 1000) * 1000),
        contentType: req.headers["content-type"] ?? "binary/octet-stream",
      });
      res.writeHead(200, { etag, "content-length": "0" });
      return void res.end();
    }
    if (method === "DELETE") {
      objects.delete(id);
      res.writeHead(204);
      return void res.end();
    }
    if (method === "GET" || method === "HEAD") {
      const object = objects.get(id);
      if (!object) throw new S3Failure(404, "NoSuchKey", "The specified key does not exist.", { Key: key });
      const size = object.body.length;
      const headers = {
        etag: object.etag,
        "last-modified": object.lastModified.toUTCString(),
        "content-type": object.contentType,
        "accept-ranges": "bytes",
      };
      const range = parseRange(req.headers.range, size);
      if (range === "invalid") {
        throw new S3Failure(416, "InvalidRange", "The requested range is not satisfiable", {
          RangeRequested: String(req.headers.range),
          ActualObjectSize: String(size),
        });
      }
      if (range) {
        res.writeHead(206, {
          ...headers,
          "content-range": `bytes ${range.start}-${range.end}/${size}`,
          "content-length": String(range.end - range.start + 1),
        });
        return void res.end(method === "HEAD" ? undefined : object.body.subarray(range.start, range.end + 1));
      }
      res.writeHead(200, { ...headers, "content-length": String(size) });
      return void res.end(method === "HEAD" ? undefined : object.body);
    }
    throw new S3Failure(
      405,
      "MethodNotAllowed",
      "The specified method is not allowed against this resource.",
    );
  }

  const server = createServer((req, res) => {
    const method = req.method ?? "GET";
    const resource = (req.url ?? "/").split("?")[0] ?? "/";
    res.on("finish", () => {
      requests.push({
        method,
        path: req.url ?? "/",
        status: res.statusCode,
        contentSha256: req.headers["x-amz-content-sha256"] as string | undefined,
        contentLength: req.headers["content-length"],
        transferEncoding: req.headers["transfer-encoding"],
        range: req.headers.range,
      });
    });
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      const failure =
        err instanceof S3Failure
          ? err
          : new S3Failure(500, "InternalError", "We encountered an internal error. Please try again.");
      sendError(res, method, resource, failure);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    region: creds.region,
    bucket,
    accessKeyId: creds.accessKeyId,
    secretAccessKey: creds.secretAccessKey,
    objects,
    requests,
    failNext(status, count = 1) {
      failures = { status, count };
    },
    stallNext(count = 1) {
      stalls = count;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export { EMPTY_SHA256 };
