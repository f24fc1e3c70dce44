import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { AwsClient, AwsV4Signer } from "aws4fetch";
import { PRIVATE_DIR_MODE } from "../../lib/private-files";
import { assertKey, type Storage } from "./storage";

export interface S3StorageOptions {
  /** The S3 API's base URL (https://s3.eu-west-3.amazonaws.com, http://127.0.0.1:9000…). */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** endpoint/bucket/key (MinIO, most S3-compatible stores) rather than bucket.endpoint/key. */
  forcePathStyle: boolean;
  /** A folder inside the bucket that every key goes under ("parlons/"). */
  prefix?: string;
  /** Local folder whose `.tmp` holds uploads in progress before they are sent. */
  tempRoot: string;
  /** How long HEAD, GET and DELETE wait for the response headers, and a PUT for any progress (ms, 30 s). */
  timeoutMs?: number;
  /** Tries of a request answered 5xx or 429 or failing on the network (3 by default). */
  attempts?: number;
}

/** What a call to the object store answered, with S3's error code when it sent one. */
export class S3StorageError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = "S3StorageError";
  }
}

/** SHA-256 of nothing: the payload hash of HEAD, GET and DELETE. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const ERROR_BODY_LIMIT = 16 * 1024;

const MIME: Record<string, string> = {
  mp3: "audio/mpeg",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
};
const mimeOf = (key: string) => MIME[path.extname(key).slice(1).toLowerCase()] ?? "application/octet-stream";

function normalPrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  return trimmed ? `${trimmed}/` : "";
}

/** The URL of an object: path-style (endpoint/bucket/key) or virtual-hosted (bucket.endpoint/key). */
export function s3ObjectUrl(
  opts: Pick<S3StorageOptions, "endpoint" | "bucket" | "forcePathStyle" | "prefix">,
  key: string,
): string {
  const base = new URL(opts.endpoint);
  const basePath = base.pathname.replace(/\/+$/, "");
  const objectPath = `${normalPrefix(opts.prefix)}${assertKey(key)}`
    .split("/")
    .map(encodeURIComponent)
    .join("/");
  return opts.forcePathStyle
    ? `${base.origin}${basePath}/${encodeURIComponent(opts.bucket)}/${objectPath}`
    : `${base.protocol}//${opts.bucket}.${base.host}${basePath}/${objectPath}`;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Reads at most `limit` bytes of a body as text and drops the rest. */
async function boundedText(res: Response, limit: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

const xmlText = (xml: string, tag: string) =>
  new RegExp(`<${tag}>([^<]*)</${tag}>`)
    .exec(xml)?.[1]
    ?.replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/**
 * A Readable returned at once that sends the GET when first read, streams the body and errors on
 * an answer that is not the expected one. Destroying it aborts the request.
 */
class ObjectStream extends Readable {
  readonly #controller = new AbortController();
  readonly #open: (signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(open: (signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>) {
    super();
    this.#open = open;
  }

  override _read(): void {
    void this.#pull();
  }

  async #pull(): Promise<void> {
    try {
      this.#reader ??= (await this.#open(this.#controller.signal)).getReader();
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (this.destroyed) return;
        if (done) {
          this.push(null);
          return;
        }
        if (value.byteLength > 0) {
          this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
          return;
        }
      }
    } catch (err) {
      if (!this.destroyed) this.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.#controller.abort();
    this.#reader?.cancel().catch(() => {});
    callback(err);
  }
}

/** "message: cause" of a network error, or the reason of an abort. */
function describe(err: unknown): string {
  const parts = [err instanceof Error ? err.message : String(err)];
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error) parts.push(cause.message);
  return parts.join(": ");
}

const backoff = (attempt: number) => sleep(100 * 2 ** (attempt - 1));
const retryable = (status: number) => status >= 500 || status === 429;

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, R2, Scaleway…), signed with SigV4 by aws4fetch.
 * Uploads arrive in a local temp folder first, then are streamed to the bucket with their SHA-256
 * (a signed payload: the store checks the bytes it received) over node:http, because Node's fetch
 * keeps a streamed request body in memory (undici #4058). HEAD, GET and DELETE use fetch; reads
 * stream the object or a byte range of it.
 */
export function createS3Storage(opts: S3StorageOptions): Storage {
  const client = new AwsClient({
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
    service: "s3",
    region: opts.region,
    retries: 0,
  });
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const attempts = Math.max(1, opts.attempts ?? 3);
  const secret = opts.secretAccessKey;
  // whatever a server or the network says, the secret never ends up in a message
  const redact = (text: string) => (secret ? text.split(secret).join("[secret]") : text);

  function failure(method: string, key: string, status: number, xml: string): S3StorageError {
    const code = xmlText(xml, "Code");
    const message = xmlText(xml, "Message");
    const hint =
      !code && (status === 403 || status === 401)
        ? " (access denied: check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_REGION)"
        : "";
    const text = `S3 ${method} ${key} failed: ${status}${code ? ` ${code}` : ""}${message ? ` (${message})` : ""}${hint}`;
    return new S3StorageError(redact(text), status, code);
  }

  async function failed(method: string, key: string, res: Response): Promise<S3StorageError> {
    let xml = "";
    if (method === "HEAD") await res.body?.cancel().catch(() => {});
    else xml = await boundedText(res, ERROR_BODY_LIMIT);
    return failure(method, key, res.status, xml);
  }

  /** HEAD, GET or DELETE through fetch, tried again on 5xx, 429 and network errors. */
  async function send(
    method: "GET" | "HEAD" | "DELETE",
    key: string,
    init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const url = s3ObjectUrl(opts, key);
    for (let attempt = 1; ; attempt += 1) {
      const controller = new AbortController();
      const onAbort = () => controller.abort(init.signal?.reason);
      init.signal?.addEventListener("abort", onAbort, { once: true });
      // the timer covers the wait for the response headers, not the reading of the body
      const timer = setTimeout(
        () => controller.abort(new Error(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      try {
        const request = await client.sign(url, {
          method,
          headers: { ...init.headers, "x-amz-content-sha256": EMPTY_SHA256 },
          signal: controller.signal,
        });
        const res = await fetch(request);
        if (retryable(res.status) && attempt < attempts) {
          await res.body?.cancel().catch(() => {});
          await backoff(attempt);
          continue;
        }
        return res;
      } catch (err) {
        if (init.signal?.aborted) throw err;
        if (attempt < attempts && !controller.signal.aborted) {
          await backoff(attempt);
          continue;
        }
        const reason: unknown = controller.signal.aborted ? controller.signal.reason : err;
        throw new S3StorageError(redact(`S3 ${method} ${key} failed: ${describe(reason)}`));
      } finally {
        clearTimeout(timer);
        init.signal?.removeEventListener("abort", onAbort);
      }
    }
  }

  /** One PUT of a local file over node:http(s), streamed with its Content-Length. */
  async function putOnce(url: string, key: string, localFile: string, size: number, payloadHash: string) {
    const signer = new AwsV4Signer({
      method: "PUT",
      url,
      headers: {
        "content-length": String(size),
        "content-type": mimeOf(key),
        "x-amz-content-sha256": payloadHash,
      },
      accessKeyId: opts.accessKeyId,
      secretAccessKey: opts.secretAccessKey,
      service: "s3",
      region: opts.region,
      cache: client.cache,
    });
    const { headers } = await signer.sign();
    const target = new URL(url);
    const request = (target.protocol === "https:" ? httpsRequest : httpRequest)(target, {
      method: "PUT",
      headers: Object.fromEntries(headers),
    });
    // no overall limit (100 MB take their time on a slow link), but no progress for this long fails
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no progress within ${timeoutMs} ms`)));
    const answered = new Promise<{ status: number; xml: string }>((resolve, reject) => {
      request.on("error", reject);
      request.on("response", (res) => {
        const chunks: Buffer[] = [];
        let length = 0;
        res.on("data", (chunk: Buffer) => {
          if (length < ERROR_BODY_LIMIT) chunks.push(chunk);
          length += chunk.length;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, xml: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      });
    });
    const sent = pipeline(createReadStream(localFile), request);
    // an answer before the whole body was sent (an early 403) is still the answer
    const [answer] = await Promise.all([answered, sent.catch(() => answered)]);
    return answer;
  }

  async function upload(key: string, localFile: string): Promise<void> {
    assertKey(key);
    const url = s3ObjectUrl(opts, key);
    const { size } = await stat(localFile);
    const payloadHash = await sha256OfFile(localFile);
    for (let attempt = 1; ; attempt += 1) {
      let answer: { status: number; xml: string };
      try {
        answer = await putOnce(url, key, localFile, size, payloadHash);
      } catch (err) {
        if (attempt < attempts) {
          await backoff(attempt);
          continue;
        }
        throw new S3StorageError(redact(`S3 PUT ${key} failed: ${describe(err)}`));
      }
      if (retryable(answer.status) && attempt < attempts) {
        await backoff(attempt);
        continue;
      }
      if (answer.status < 200 || answer.status > 299) throw failure("PUT", key, answer.status, answer.xml);
      return;
    }
  }

  return {
    kind: "s3",
    async tempDir() {
      const dir = path.join(opts.tempRoot, ".tmp");
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      return dir;
    },
    async putFile(key, localFile) {
      await upload(key, localFile);
      await rm(localFile, { force: true });
    },
    async copyFile(key, localFile) {
      await upload(key, localFile);
    },
    async stat(key) {
      assertKey(key);
      const res = await send("HEAD", key);
      if (res.status === 404) {
        await res.body?.cancel().catch(() => {});
        return null;
      }
      if (!res.ok) throw await failed("HEAD", key, res);
      await res.body?.cancel().catch(() => {});
      const size = Number(res.headers.get("content-length"));
      const mtime = new Date(res.headers.get("last-modified") ?? "");
      if (!Number.isSafeInteger(size) || size < 0 || Number.isNaN(mtime.getTime())) {
        throw new S3StorageError(`S3 HEAD ${key} answered without a valid Content-Length or Last-Modified`);
      }
      return { size, mtime };
    },
    read(key, range) {
      assertKey(key);
      return new ObjectStream(async (signal) => {
        const res = await send("GET", key, {
          headers: range ? { range: `bytes=${range.start}-${range.end}` } : {},
          signal,
        });
        const expected = range ? 206 : 200;
        if (res.status !== expected) {
          if (res.ok) {
            await res.body?.cancel().catch(() => {});
            throw new S3StorageError(
              `S3 GET ${key} answered ${res.status} instead of ${expected}`,
              res.status,
            );
          }
          throw await failed("GET", key, res);
        }
        if (!res.body) throw new S3StorageError(`S3 GET ${key} answered without a body`, res.status);
        return res.body;
      });
    },
    async delete(key) {
      assertKey(key);
      const res = await send("DELETE", key);
      if (!res.ok && res.status !== 404) throw await failed("DELETE", key, res);
      await res.body?.cancel().catch(() => {});
    },
  };
}
