import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_SHA256, type FakeS3, startFakeS3 } from "../../../test/fakes/s3-server";
import { buildTestApp } from "../../../test/helpers/build";
import { courseInput, multipart, toneMp3 } from "../../../test/helpers/learning";
import { ConfigError, loadConfig } from "../../config";
import { seedDemoCourses } from "../../db/demo/courses";
import { createStorage } from "./index";
import { createS3Storage, S3StorageError, type S3StorageOptions, s3ObjectUrl } from "./s3";

let fake: FakeS3;
let dir: string;
beforeAll(async () => {
  fake = await startFakeS3();
  dir = mkdtempSync(path.join(tmpdir(), "parlons-s3-"));
});
afterAll(() => fake.close());

const storageWith = (over: Partial<S3StorageOptions> = {}) =>
  createS3Storage({
    endpoint: fake.url,
    region: fake.region,
    bucket: fake.bucket,
    accessKeyId: fake.accessKeyId,
    secretAccessKey: fake.secretAccessKey,
    forcePathStyle: true,
    tempRoot: dir,
    ...over,
  });

function localFile(bytes: Buffer): string {
  const file = path.join(dir, randomUUID());
  writeFileSync(file, bytes);
  return file;
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Waits for a stream's error (fails the test if it ends instead). */
function streamError(stream: Readable): Promise<Error> {
  return new Promise((resolve, reject) => {
    stream.on("error", resolve);
    stream.on("end", () => reject(new Error("the stream ended without an error")));
    stream.resume();
  });
}

describe("S3 storage driver against a fake S3 that checks SigV4", () => {
  it("puts a file (signed payload, Content-Length), stats it, reads it whole and by ranges, deletes it", async () => {
    const storage = storageWith();
    expect(storage.kind).toBe("s3");
    const bytes = randomBytes(200_000);
    const file = localFile(bytes);
    await storage.putFile("audio/a.mp3", file);
    expect(existsSync(file)).toBe(false);
    const object = fake.objects.get(`${fake.bucket}/audio/a.mp3`);
    expect(object?.body.equals(bytes)).toBe(true);
    expect(object?.contentType).toBe("audio/mpeg");
    const put = fake.requests.findLast((r) => r.method === "PUT");
    expect(put).toMatchObject({ status: 200, contentLength: "200000", contentSha256: sha256(bytes) });
    expect(put?.transferEncoding).toBeUndefined();

    const info = await storage.stat("audio/a.mp3");
    expect(info?.size).toBe(bytes.length);
    expect(Math.abs((info?.mtime.getTime() ?? 0) - Date.now())).toBeLessThan(5000);

    expect((await buffer(storage.read("audio/a.mp3"))).equals(bytes)).toBe(true);
    const size = bytes.length;
    for (const [start, end] of [
      [0, 0],
      [0, 99],
      [1000, 1999],
      [size - 500, size - 1],
      [12_345, size - 1],
    ] as const) {
      const got = await buffer(storage.read("audio/a.mp3", { start, end }));
      expect(got.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
      expect(fake.requests.at(-1)).toMatchObject({
        method: "GET",
        status: 206,
        range: `bytes=${start}-${end}`,
      });
    }

    await storage.delete("audio/a.mp3");
    expect(await storage.stat("audio/a.mp3")).toBeNull();
    await storage.delete("audio/a.mp3"); // already gone: fine
  });

  it("answers null for a missing object and errors the read stream with NoSuchKey", async () => {
    const storage = storageWith();
    expect(await storage.stat("audio/missing.mp3")).toBeNull();
    const err = await streamError(storage.read("audio/missing.mp3"));
    expect(err).toBeInstanceOf(S3StorageError);
    expect(err.message).toMatch(/404 NoSuchKey/);
    const ranged = await streamError(storage.read("audio/missing.mp3", { start: 0, end: 9 }));
    expect(ranged.message).toMatch(/404 NoSuchKey/);
  });

  it("copies a file leaving it in place, under the prefix, with the image's content type", async () => {
    const storage = storageWith({ prefix: "/site/media/" });
    const bytes = randomBytes(1000);
    const file = localFile(bytes);
    await storage.copyFile("images/cover.png", file);
    expect(existsSync(file)).toBe(true);
    const object = fake.objects.get(`${fake.bucket}/site/media/images/cover.png`);
    expect(object?.body.equals(bytes)).toBe(true);
    expect(object?.contentType).toBe("image/png");
    expect(fake.objects.has(`${fake.bucket}/images/cover.png`)).toBe(false);
    expect((await storage.stat("images/cover.png"))?.size).toBe(1000);
    expect(await storageWith().stat("images/cover.png")).toBeNull();
    const empty = localFile(Buffer.alloc(0));
    await storage.putFile("images/empty.png", empty);
    expect((await storage.stat("images/empty.png"))?.size).toBe(0);
    expect((await buffer(storage.read("images/empty.png"))).length).toBe(0);
  });

  it("streams a 5 MB file up and down", async () => {
    const storage = storageWith();
    const bytes = randomBytes(5 * 1024 * 1024);
    await storage.putFile("audio/big.mp3", localFile(bytes));
    const put = fake.requests.findLast((r) => r.method === "PUT");
    expect(put).toMatchObject({ status: 200, contentLength: String(bytes.length) });
    expect(put?.transferEncoding).toBeUndefined();
    const stream = storage.read("audio/big.mp3");
    let chunks = 0;
    const hash = createHash("sha256");
    for await (const chunk of stream) {
      chunks += 1;
      hash.update(chunk as Buffer);
    }
    expect(hash.digest("hex")).toBe(sha256(bytes));
    expect(chunks).toBeGreaterThan(1); // streamed, not one buffer
    const tail = await buffer(
      storage.read("audio/big.mp3", { start: bytes.length - 70_000, end: bytes.length - 1 }),
    );
    expect(tail.equals(bytes.subarray(bytes.length - 70_000))).toBe(true);
  });

  it("reads lazily: nothing is asked before the stream is read, and destroying it stops the download", async () => {
    const storage = storageWith();
    await storage.putFile("audio/lazy.mp3", localFile(randomBytes(3 * 1024 * 1024)));
    const before = fake.requests.length;
    const stream = storage.read("audio/lazy.mp3");
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests.length).toBe(before);
    const first = await new Promise<Buffer>((resolve) => stream.once("data", resolve));
    expect(first.length).toBeGreaterThan(0);
    stream.destroy();
    await new Promise((r) => stream.once("close", r));
    // never consumed: a destroyed stream before the first read does not call S3 either
    storage.read("audio/lazy.mp3").destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests.filter((r) => r.path.endsWith("/audio/lazy.mp3") && r.method === "GET").length).toBe(
      1,
    );
  });

  it("fails with S3's error code and never puts the secret in a message", async () => {
    const secret = "wrong-secret-0123456789abcdef";
    const storage = storageWith({ secretAccessKey: secret });
    const file = localFile(randomBytes(100));
    const errors: Error[] = [];
    const put = await storage.putFile("audio/x.mp3", file).catch((e: Error) => e);
    expect(put).toBeInstanceOf(S3StorageError);
    expect((put as S3StorageError).status).toBe(403);
    expect((put as S3StorageError).code).toBe("SignatureDoesNotMatch");
    expect(String(put)).toMatch(/403 SignatureDoesNotMatch/);
    expect(existsSync(file)).toBe(true); // kept for the caller to clean up
    errors.push(put as Error);
    const head = await storage.stat("audio/x.mp3").catch((e: Error) => e);
    expect(String(head)).toMatch(/403.*S3_SECRET_ACCESS_KEY/);
    errors.push(head as Error);
    errors.push(await streamError(storage.read("audio/x.mp3", { start: 0, end: 9 })));
    errors.push((await storage.delete("audio/x.mp3").catch((e: Error) => e)) as Error);
    expect(errors.at(-1)).toBeInstanceOf(S3StorageError);
    for (const err of errors) {
      expect(`${err.message} ${err.stack}`).not.toContain(secret);
      expect(`${err.message} ${err.stack}`).not.toContain(fake.secretAccessKey);
    }
    const badKey = await storageWith({ accessKeyId: "NOBODY" })
      .putFile("audio/x.mp3", file)
      .catch((e) => e);
    expect(String(badKey)).toMatch(/403 InvalidAccessKeyId/);
    const badRegion = await storageWith({ region: "eu-west-3" })
      .putFile("audio/x.mp3", file)
      .catch((e) => e);
    expect(String(badRegion)).toMatch(/400 AuthorizationHeaderMalformed/);
    const noServer = await storageWith({ endpoint: "http://127.0.0.1:1", attempts: 1 })
      .stat("audio/x.mp3")
      .catch((e: Error) => e);
    expect(String(noServer)).toMatch(/S3 HEAD audio\/x.mp3 failed: fetch failed/);
  });

  it("tries again after a 5xx, then gives up with the code; a stalled answer times out", async () => {
    const storage = storageWith({ attempts: 2 });
    await storage.putFile("audio/retry.mp3", localFile(randomBytes(10)));
    fake.failNext(500, 1);
    await storage.putFile("audio/retry.mp3", localFile(randomBytes(20))); // the body is sent again
    expect((await storage.stat("audio/retry.mp3"))?.size).toBe(20);
    fake.failNext(503, 2);
    await expect(storage.stat("audio/retry.mp3")).rejects.toThrow(/503/);
    fake.failNext(503, 2);
    const err = await streamError(storage.read("audio/retry.mp3"));
    expect(err.message).toMatch(/503 SlowDown/);
    const impatient = storageWith({ timeoutMs: 200, attempts: 1 });
    fake.stallNext(1);
    await expect(impatient.stat("audio/retry.mp3")).rejects.toThrow(/no answer within 200 ms/);
    fake.stallNext(1);
    await expect(impatient.putFile("audio/stall.mp3", localFile(randomBytes(10)))).rejects.toThrow(
      /S3 PUT audio\/stall.mp3 failed: no progress within 200 ms/,
    );
    fake.stallNext(1);
    expect((await streamError(impatient.read("audio/retry.mp3"))).message).toMatch(/no answer within 200 ms/);
  });

  it("checks keys before any request", async () => {
    const storage = storageWith();
    const before = fake.requests.length;
    await expect(storage.putFile("../etc/passwd", localFile(Buffer.from("x")))).rejects.toThrow(
      /Invalid storage key/,
    );
    await expect(storage.stat("audio/../x")).rejects.toThrow(/Invalid storage key/);
    expect(() => storage.read("/audio/x.mp3")).toThrow(/Invalid storage key/);
    await expect(storage.delete("audio/a b")).rejects.toThrow(/Invalid storage key/);
    expect(fake.requests.length).toBe(before);
  });

  it("keeps uploads in progress in a local temp folder", async () => {
    const temp = await storageWith().tempDir();
    expect(temp).toBe(path.join(dir, ".tmp"));
    expect(readdirSync(temp)).toEqual([]);
  });

  it("builds path-style and virtual-hosted URLs", () => {
    const base = { bucket: "media", forcePathStyle: true, endpoint: "http://127.0.0.1:9000" };
    expect(s3ObjectUrl(base, "audio/a.mp3")).toBe("http://127.0.0.1:9000/media/audio/a.mp3");
    expect(s3ObjectUrl({ ...base, endpoint: "http://minio.local/s3/", prefix: "p/q" }, "audio/a.mp3")).toBe(
      "http://minio.local/s3/media/p/q/audio/a.mp3",
    );
    expect(
      s3ObjectUrl(
        { bucket: "media", forcePathStyle: false, endpoint: "https://s3.eu-west-3.amazonaws.com" },
        "images/c.png",
      ),
    ).toBe("https://media.s3.eu-west-3.amazonaws.com/images/c.png");
  });
});

describe("the fake S3 itself", () => {
  const client = () =>
    new AwsClient({
      accessKeyId: fake.accessKeyId,
      secretAccessKey: fake.secretAccessKey,
      service: "s3",
      region: fake.region,
      retries: 0,
    });
  const url = (key: string) => `${fake.url}/${fake.bucket}/${key}`;

  it("takes UNSIGNED-PAYLOAD and signed payloads, refuses a wrong payload hash and a tampered request", async () => {
    const body = Buffer.from("hello");
    const unsigned = await client().fetch(url("audio/u.mp3"), {
      method: "PUT",
      body,
      headers: { "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
    });
    expect(unsigned.status).toBe(200);
    const signed = await client().fetch(url("audio/s.mp3"), {
      method: "PUT",
      body,
      headers: { "x-amz-content-sha256": sha256(body) },
    });
    expect(signed.status).toBe(200);
    const mismatch = await client().fetch(url("audio/m.mp3"), {
      method: "PUT",
      body,
      headers: { "x-amz-content-sha256": EMPTY_SHA256 },
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("<Code>XAmzContentSHA256Mismatch</Code>");
    const request = await client().sign(url("audio/s.mp3"), { method: "GET" });
    const tampered = await fetch(url("audio/u.mp3"), { headers: request.headers });
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
    expect((await fetch(url("audio/u.mp3"))).status).toBe(403);
    const ok = await fetch(request);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("hello");
  });
});

describe("configuration", () => {
  const base = { DATA_DIR: mkdtempSync(path.join(tmpdir(), "parlons-s3-config-")) };
  const full = {
    ...base,
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: "http://127.0.0.1:9000/",
    S3_BUCKET: "parlons-media",
    S3_ACCESS_KEY_ID: "minio",
    S3_SECRET_ACCESS_KEY: "super-secret-minio-key",
  };

  it("needs endpoint, bucket and keys with STORAGE_DRIVER=s3, and says which", () => {
    expect(() => loadConfig({ ...base, STORAGE_DRIVER: "s3" })).toThrow(ConfigError);
    try {
      loadConfig({ ...base, STORAGE_DRIVER: "s3", S3_SECRET_ACCESS_KEY: "super-secret-minio-key" });
    } catch (err) {
      const message = (err as Error).message;
      for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID"]) expect(message).toContain(name);
      expect(message).not.toContain("S3_SECRET_ACCESS_KEY");
      expect(message).not.toContain("super-secret-minio-key");
    }
    expect(() => loadConfig({ ...full, S3_ENDPOINT: "ftp://x" })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...full, S3_BUCKET: "Not_A_Bucket" })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ ...full, S3_PREFIX: "../up" })).toThrow(/S3_PREFIX/);
    expect(() => loadConfig({ ...full, STORAGE_DRIVER: "ftp" })).toThrow(/STORAGE_DRIVER/);
    // the S3 variables are ignored with the disk driver
    expect(loadConfig({ ...base, S3_BUCKET: "whatever" }).media).toMatchObject({
      driver: "disk",
      s3: undefined,
    });
  });

  it("reads the S3 settings with their defaults and picks the driver", () => {
    const config = loadConfig({ ...full, S3_PREFIX: "parlons/media/" });
    expect(config.media.driver).toBe("s3");
    expect(config.media.s3).toEqual({
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      bucket: "parlons-media",
      accessKeyId: "minio",
      secretAccessKey: "super-secret-minio-key",
      forcePathStyle: true,
      prefix: "parlons/media/",
    });
    expect(createStorage(config.media).kind).toBe("s3");
    const aws = loadConfig({ ...full, S3_REGION: "eu-west-3", S3_FORCE_PATH_STYLE: "false", S3_PREFIX: "p" });
    expect(aws.media.s3).toMatchObject({ region: "eu-west-3", forcePathStyle: false, prefix: "p/" });
    expect(createStorage(loadConfig(base).media).kind).toBe("disk");
  });
});

describe("the app on S3 storage", () => {
  it("uploads an MP3 to the bucket and serves a lesson's audio with Range from it", async () => {
    const t = await buildTestApp({
      env: {
        STORAGE_DRIVER: "s3",
        S3_ENDPOINT: fake.url,
        S3_REGION: fake.region,
        S3_BUCKET: fake.bucket,
        S3_ACCESS_KEY_ID: fake.accessKeyId,
        S3_SECRET_ACCESS_KEY: fake.secretAccessKey,
        S3_PREFIX: "app",
      },
    });
    try {
      const { storage } = t.app.deps.services.media;
      expect(storage.kind).toBe("s3");
      const admin = await t.adminToken();
      const tone = toneMp3();
      const upload = await t.request({
        method: "POST",
        url: "/api/v1/medias/file/upload",
        token: admin,
        ...multipart([
          { name: "type", value: "audio" },
          { name: "file", value: tone, filename: "tone-10s.mp3", contentType: "audio/mpeg" },
        ]),
      });
      expect(upload.statusCode).toBe(200);
      const { file_path, audioDuration } = upload.json().data as { file_path: string; audioDuration: number };
      expect(file_path).toMatch(/^audio\/[0-9a-f-]{36}\.mp3$/);
      expect(audioDuration).toBeGreaterThanOrEqual(9);
      expect(fake.objects.get(`${fake.bucket}/app/${file_path}`)?.body.equals(tone)).toBe(true);
      // nothing left on the local disk: no temp file, no media folder
      expect(readdirSync(path.join(t.config.media.dir, ".tmp"))).toEqual([]);
      expect(existsSync(path.join(t.config.media.dir, "audio"))).toBe(false);

      const course = (
        await t.request({ method: "POST", url: "/api/v1/courses", token: admin, payload: courseInput() })
      ).json().data.course as { id: string };
      const lesson = await t.request({
        method: "POST",
        url: `/api/v1/courses/${course.id}/lessons`,
        token: admin,
        payload: {
          title_fr: "Bonjour",
          title_en: "Hello",
          audio: `${file_path}:${audioDuration}`,
          free: true,
        },
      });
      expect(lesson.statusCode).toBe(201);
      const learner = await t.createUser();
      const lessons = await t.request({
        method: "GET",
        url: `/api/v1/courses/${course.id}/lessons`,
        token: learner.token,
      });
      const audioUrl = lessons.json().data.lessons[0].audio.url as string;

      const size = tone.length;
      const ranged = await t.request({ method: "GET", url: audioUrl, headers: { range: "bytes=1000-4999" } });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers["content-range"]).toBe(`bytes 1000-4999/${size}`);
      expect(ranged.headers["content-length"]).toBe("4000");
      expect(ranged.rawPayload.equals(tone.subarray(1000, 5000))).toBe(true);
      const suffix = await t.request({ method: "GET", url: audioUrl, headers: { range: "bytes=-300" } });
      expect(suffix.statusCode).toBe(206);
      expect(suffix.rawPayload.equals(tone.subarray(size - 300))).toBe(true);
      const whole = await t.request({ method: "GET", url: audioUrl });
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(tone)).toBe(true);
      const etag = String(whole.headers.etag);
      expect(
        (await t.request({ method: "GET", url: audioUrl, headers: { "if-none-match": etag } })).statusCode,
      ).toBe(304);
      const beyond = await t.request({ method: "GET", url: audioUrl, headers: { range: `bytes=${size}-` } });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers["content-range"]).toBe(`bytes */${size}`);
      const open = await t.request({ method: "GET", url: audioUrl, headers: { range: "bytes=30000-" } });
      expect(open.statusCode).toBe(206);
      expect(open.rawPayload.equals(tone.subarray(30000))).toBe(true);
      const ifRange = (value: string) =>
        t.request({ method: "GET", url: audioUrl, headers: { range: "bytes=0-99", "if-range": value } });
      expect((await ifRange(etag)).statusCode).toBe(206);
      const stale = await ifRange('"stale"');
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload.equals(tone)).toBe(true);
      const head = await t.request({ method: "HEAD", url: audioUrl });
      expect(head.statusCode).toBe(200);
      expect(head.headers["content-length"]).toBe(String(size));
      expect(head.rawPayload.length).toBe(0);
      // the object's size and date are remembered (one HEAD to S3, not one per Range request)
      const heads = fake.requests.filter((r) => r.method === "HEAD" && r.path.endsWith(file_path)).length;
      await t.request({ method: "GET", url: audioUrl, headers: { range: "bytes=0-9" } });
      expect(fake.requests.filter((r) => r.method === "HEAD" && r.path.endsWith(file_path)).length).toBe(
        heads,
      );

      // the demo courses' files are copied to the bucket too (26 files, 3.3 MB)
      await seedDemoCourses(t.database.db, storage);
      expect(
        [...fake.objects.keys()].filter((k) => k.startsWith(`${fake.bucket}/app/audio/demo-`)),
      ).toHaveLength(12);
    } finally {
      await t.close();
    }
  }, 90_000);
});
