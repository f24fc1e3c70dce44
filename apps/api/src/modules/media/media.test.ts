import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { MAX_UPLOAD_BYTES } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, fixtures, multipart, toneMp3, uploadAudio } from "../../../test/helpers/learning";
import { parseRange } from "./range";
import { createMediaUrlSigner } from "./signing";
import { sniff } from "./sniff";

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const upload = (token: string | undefined, body: ReturnType<typeof multipart>) =>
  t.request({ method: "POST", url: "/api/v1/medias/file/upload", token, ...body });

describe("POST /v1/medias/file/upload", () => {
  it("stores an MP3 under a random name and answers its duration", async () => {
    const res = await upload(
      admin,
      multipart([
        { name: "type", value: "audio" },
        { name: "file", value: toneMp3(), filename: "../../etc/passwd.mp3", contentType: "audio/mpeg" },
      ]),
    );
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.file_path).toMatch(/^audio\/[0-9a-f-]{36}\.mp3$/);
    expect(data.audioDuration).toBeGreaterThanOrEqual(9);
    expect(data.audioDuration).toBeLessThanOrEqual(11);
    expect(data.media).toMatchObject({ type: "audio", mime_type: "audio/mpeg", size: toneMp3().length });
    const stored = readFileSync(path.join(t.config.media.dir, data.file_path));
    expect(stored.equals(toneMp3())).toBe(true);
  });

  it("takes a cover image with type=image and refuses an image sent as audio", async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64),
    ]);
    const ok = await upload(
      admin,
      multipart([
        { name: "type", value: "image" },
        { name: "file", value: png, filename: "c.png" },
      ]),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.file_path).toMatch(/^images\/.+\.png$/);
    expect(ok.json().data.audioDuration).toBeUndefined();
    const wrong = await upload(admin, multipart([{ name: "file", value: png, filename: "c.mp3" }]));
    expect(wrong.statusCode).toBe(415);
  });

  it("refuses a PDF renamed .mp3 with 415 and keeps nothing", async () => {
    const pdf = readFileSync(path.join(fixtures, "not-audio.pdf"));
    const res = await upload(
      admin,
      multipart([{ name: "file", value: pdf, filename: "lesson.mp3", contentType: "audio/mpeg" }]),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses two files with 400, a missing file with 422, a JSON body with 415", async () => {
    const two = await upload(
      admin,
      multipart([
        { name: "file", value: toneMp3(), filename: "a.mp3" },
        { name: "file", value: toneMp3(), filename: "b.mp3" },
      ]),
    );
    expect(two.statusCode).toBe(400);
    const none = await upload(admin, multipart([{ name: "type", value: "audio" }]));
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.file).toBeDefined();
    const badType = await upload(
      admin,
      multipart([
        { name: "type", value: "video" },
        { name: "file", value: toneMp3(), filename: "a.mp3" },
      ]),
    );
    expect(badType.statusCode).toBe(422);
    const json = await t.request({
      method: "POST",
      url: "/api/v1/medias/file/upload",
      token: admin,
      payload: { a: 1 },
    });
    expect(json.statusCode).toBe(415);
  });

  it("needs authentication (401) and the media.upload permission (403)", async () => {
    const body = multipart([{ name: "file", value: toneMp3(), filename: "a.mp3" }]);
    expect((await upload(undefined, body)).statusCode).toBe(401);
    const learner = await t.createUser();
    expect((await upload(learner.token, body)).statusCode).toBe(403);
  });

  it("refuses 100 MB or more while streaming, without holding the file in memory", async () => {
    const boundary = "----parlonsbig";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
    const mp3Header = Buffer.from([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0, 0, 0]);
    const total = 150 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024);
    let produced = 0;
    const body = new Readable({
      read() {
        if (produced === 0) {
          produced += head.length + mp3Header.length;
          this.push(Buffer.concat([head, mp3Header]));
        } else if (produced < total) {
          produced += chunk.length;
          // a fresh buffer each time, so that anything holding on to them shows in RSS
          this.push(Buffer.allocUnsafe(chunk.length).fill(0));
        } else {
          this.push(Buffer.from(`\r\n--${boundary}--\r\n`));
          this.push(null);
        }
      },
    });
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    const res = await t.request({
      method: "POST",
      url: "/api/v1/medias/file/upload",
      token: admin,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    clearInterval(sampler);
    body.destroy();
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe("File must be smaller than 100 MB");
    // aborted at the limit: the rest of the 150 MB was never read…
    expect(produced).toBeLessThan(MAX_UPLOAD_BYTES + 8 * 1024 * 1024);
    // …and what was read went to disk, not to memory (the garbage of the fresh chunks aside)
    expect(rssPeak - rssBefore).toBeLessThan(96 * 1024 * 1024);
    expect(readdirSync(path.join(t.config.media.dir, ".tmp"))).toEqual([]);
  });
});

describe("content sniffing and byte ranges (units)", () => {
  it("recognises MP3 (ID3 or frame sync) and images, not PDFs or AAC", () => {
    expect(sniff(Buffer.from("ID3\x04\0\0\0\0\0\0\0\0", "latin1"))?.type).toBe("audio");
    expect(sniff(Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 0, 0, 0, 0]))?.mime).toBe("audio/mpeg");
    expect(sniff(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(sniff(Buffer.from("%PDF-1.4\n%abc", "latin1"))).toBeNull();
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0]))?.mime).toBe("image/jpeg");
    expect(sniff(Buffer.from("RIFF\0\0\0\0WEBP", "latin1"))?.mime).toBe("image/webp");
    expect(sniff(Buffer.from("<svg xmlns='x'>", "latin1"))).toBeNull();
  });

  it("parses ranges", () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: "none" });
    expect(parseRange("bytes=0-9", 100)).toEqual({ kind: "range", start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ kind: "range", start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ kind: "range", start: 90, end: 99 });
    expect(parseRange("bytes=-500", 100)).toEqual({ kind: "range", start: 0, end: 99 });
    expect(parseRange("bytes=50-500", 100)).toEqual({ kind: "range", start: 50, end: 99 });
    expect(parseRange("bytes=0-1,5-9", 100)).toEqual({ kind: "range", start: 0, end: 9 });
    expect(parseRange("items=0-1", 100)).toEqual({ kind: "none" });
    for (const bad of ["bytes=100-", "bytes=9-1", "bytes=abc", "bytes=-0", "bytes=-", "nonsense"]) {
      expect(parseRange(bad, 100), bad).toEqual({ kind: "unsatisfiable" });
    }
  });

  it("signs URLs bound to lesson, user and expiry", () => {
    const signer = createMediaUrlSigner({ secret: "s".repeat(40), ttlSeconds: 600 });
    const now = Date.now();
    const { url, expiresAt } = signer.sign("L1", "U1", { baseUrl: "https://cdn.test", now });
    expect(url.startsWith("https://cdn.test/api/v1/media/audio/L1?")).toBe(true);
    expect(expiresAt.getTime()).toBeGreaterThan(now + 600_000 - 1000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(now + 1_200_000);
    const q = Object.fromEntries(new URL(url).searchParams) as { u: string; exp: string; sig: string };
    const query = { u: q.u, exp: Number(q.exp), sig: q.sig };
    expect(signer.verify("L1", query, now)).toBe("U1");
    expect(() => signer.verify("L2", query, now)).toThrow(/Invalid/);
    expect(() => signer.verify("L1", { ...query, u: "U2" }, now)).toThrow(/Invalid/);
    expect(() => signer.verify("L1", query, expiresAt.getTime() + 1)).toThrow(/expired/);
  });
});

describe("GET /v1/media/audio/{lessonId}", () => {
  let url: string;
  const file = toneMp3();
  const size = file.length;
  beforeAll(async () => {
    const { course } = await courseWithLessons(t, admin);
    const learner = await t.createUser();
    const res = await t.request({
      method: "GET",
      url: `/api/v1/courses/${course.id}/lessons`,
      token: learner.token,
    });
    url = res.json().data.lessons[0].audio.url;
  });
  const get = (headers: Record<string, string> = {}, u = url) =>
    t.request({ method: "GET", url: u, headers });

  it("serves the whole file with validators and private caching", async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("audio/mpeg");
    expect(res.headers["accept-ranges"]).toBe("bytes");
    expect(res.headers["content-length"]).toBe(String(size));
    expect(res.headers["cache-control"]).toMatch(/^private/);
    expect(res.headers.etag).toBeDefined();
    expect(res.headers["last-modified"]).toBeDefined();
    expect(res.rawPayload.equals(file)).toBe(true);
  });

  it("answers ranges byte for byte: first bytes, middle, suffix, open-ended", async () => {
    const cases: [string, number, number][] = [
      ["bytes=0-99", 0, 99],
      ["bytes=1000-1999", 1000, 1999],
      ["bytes=-500", size - 500, size - 1],
      ["bytes=30000-", 30000, size - 1],
      ["bytes=0-", 0, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers["content-range"], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers["content-length"], range).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(file.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it("answers 416 with the size for unsatisfiable or malformed ranges", async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, "bytes=9-1", "bytes=x-y"]) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers["content-range"], range).toBe(`bytes */${size}`);
    }
  });

  it("answers 304 to a matching If-None-Match or If-Modified-Since, and honours If-Range", async () => {
    const first = await get();
    const etag = String(first.headers.etag);
    const notModified = await get({ "if-none-match": etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect((await get({ "if-modified-since": String(first.headers["last-modified"]) })).statusCode).toBe(304);
    expect((await get({ "if-none-match": '"other"' })).statusCode).toBe(200);
    expect((await get({ range: "bytes=0-9", "if-range": etag })).statusCode).toBe(206);
    expect((await get({ range: "bytes=0-9", "if-range": '"stale"' })).statusCode).toBe(200);
  });

  it("refuses a tampered or expired signature with 403", async () => {
    const tampered = url.replace(/sig=([^&]+)/, (_m, s: string) => `sig=${s.slice(0, -2)}AA`);
    expect((await get({}, tampered)).statusCode).toBe(403);
    const otherUser = url.replace(/u=[^&]+/, "u=anon");
    expect((await get({}, otherUser)).statusCode).toBe(403);
    const lessonId = /audio\/([^?]+)/.exec(url)?.[1] ?? "";
    const signer = createMediaUrlSigner({ secret: t.config.jwtSecret, ttlSeconds: 60 });
    const old = signer.sign(lessonId, null, { now: Date.now() - 10 * 60_000 });
    const res = await get({}, old.url);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/expired/);
    expect((await get({}, url.split("?")[0] as string)).statusCode).toBe(422);
  });
});

describe("uploads through the lesson route", () => {
  it("POST /v1/courses/{courseId}/lessons/file/upload stores the file like the media route", async () => {
    const { course } = await courseWithLessons(t, admin);
    const res = await t.request({
      method: "POST",
      url: `/api/v1/courses/${course.id}/lessons/file/upload`,
      token: admin,
      ...multipart([{ name: "file", value: toneMp3(), filename: "x.mp3" }]),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.audioDuration).toBeGreaterThanOrEqual(9);
    const missing = await t.request({
      method: "POST",
      url: "/api/v1/courses/00000000-0000-4000-8000-000000000000/lessons/file/upload",
      token: admin,
      ...multipart([{ name: "file", value: toneMp3(), filename: "x.mp3" }]),
    });
    expect(missing.statusCode).toBe(404);
    const learner = await t.createUser();
    expect(
      (
        await t.request({
          method: "POST",
          url: `/api/v1/courses/${course.id}/lessons/file/upload`,
          token: learner.token,
          ...multipart([{ name: "file", value: toneMp3(), filename: "x.mp3" }]),
        })
      ).statusCode,
    ).toBe(403);
  });

  it("keeps uploading after a refused upload (the helper still works)", async () => {
    expect((await uploadAudio(t, admin)).file_path).toMatch(/^audio\//);
  });
});
