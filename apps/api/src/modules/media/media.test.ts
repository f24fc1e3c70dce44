import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { MAX_UPLOAD_BYTES } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import {
  courseWithLessons,
  fixtures,
  mp3HeadThen,
  multipart,
  taggedVbrMp3,
  tinyPng,
  toneMp3,
  uploadAudio,
} from "../../../test/helpers/learning";
import { loadConfig } from "../../config";
import { parseRange } from "../../lib/range";
import { sniff } from "../../lib/sniff";
import { createMediaUrlSigner } from "./signing";

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
    const png = tinyPng();
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
    const wrong = await upload(admin, multipart([{ name: "file", value: png, filename: "c.png" }]));
    expect(wrong.statusCode).toBe(415);
    // a PNG signature in front of anything else is not a PNG
    const fake = Buffer.concat([png.subarray(0, 8), Buffer.alloc(64)]);
    const refused = await upload(
      admin,
      multipart([
        { name: "type", value: "image" },
        { name: "file", value: fake, filename: "c.png" },
      ]),
    );
    expect(refused.statusCode).toBe(415);
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
    // a real MP3's first frames (what the sniffing reads), then zeros
    const mp3Header = toneMp3().subarray(0, 8192);
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
          // a fresh buffer each time, so that anything holding on to them shows in RSS; the
          // garbage is collected every 16 MB, so that only what is held adds up (a loaded
          // machine may otherwise let 100 MB of released chunks wait for the collector)
          if (produced % (16 * 1024 * 1024) < chunk.length) global.gc?.();
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
    // …and what was read went to disk, not to memory
    expect(global.gc, "the suite runs with --expose-gc").toBeTypeOf("function");
    expect(rssPeak - rssBefore).toBeLessThan(64 * 1024 * 1024);
    expect(readdirSync(path.join(t.config.media.dir, ".tmp"))).toEqual([]);
  });
});

describe("content sniffing and byte ranges (units)", () => {
  it("recognises MP3 (ID3 or frame sync) and images, not PDFs or AAC", async () => {
    // file-type looks past the ID3v2 tag, at the MPEG frames themselves
    const frame = [0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 0, 0, 0, 0];
    const id3 = Buffer.concat([Buffer.from("ID3\x04\0\0\0\0\0\0", "latin1"), Buffer.from(frame)]);
    expect((await sniff(id3))?.type).toBe("audio");
    expect((await sniff(Buffer.from(frame)))?.mime).toBe("audio/mpeg");
    expect((await sniff(toneMp3().subarray(0, 4100)))?.ext).toBe("mp3");
    // an ID3 tag in front of something else is not an MP3
    const pdf = Buffer.from("%PDF-1.4\n%abc", "latin1");
    expect(await sniff(Buffer.concat([Buffer.from("ID3\x04\0\0\0\0\0\0", "latin1"), pdf]))).toBeNull();
    // AAC (ADTS) has the frame sync too, but layer 00
    expect(await sniff(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(await sniff(pdf)).toBeNull();
    expect((await sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0])))?.mime).toBe(
      "image/jpeg",
    );
    expect((await sniff(Buffer.from("RIFF\0\0\0\0WEBP", "latin1")))?.mime).toBe("image/webp");
    expect((await sniff(tinyPng()))?.mime).toBe("image/png");
    expect(await sniff(Buffer.from("<svg xmlns='x'>", "latin1"))).toBeNull();
  });

  it("parses ranges", () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: "none" });
    expect(parseRange("bytes=0-9", 100)).toEqual({ kind: "range", start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ kind: "range", start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ kind: "range", start: 90, end: 99 });
    expect(parseRange("bytes=-500", 100)).toEqual({ kind: "range", start: 0, end: 99 });
    expect(parseRange("bytes=50-500", 100)).toEqual({ kind: "range", start: 50, end: 99 });
    // several ranges: the whole file (200), unless none of them is satisfiable
    expect(parseRange("bytes=0-1,5-9", 100)).toEqual({ kind: "none" });
    expect(parseRange("bytes=0-1,200-300", 100)).toEqual({ kind: "range", start: 0, end: 1 });
    expect(parseRange("bytes=200-300,400-", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("items=0-1", 100)).toEqual({ kind: "none" });
    for (const bad of ["bytes=100-", "bytes=9-1", "bytes=abc", "bytes=-0", "bytes=-", "nonsense"]) {
      expect(parseRange(bad, 100), bad).toEqual({ kind: "unsatisfiable" });
    }
  });

  it("signs URLs bound to lesson, user, expiry and storage key", () => {
    const signer = createMediaUrlSigner({ secret: "s".repeat(40), ttlSeconds: 600 });
    const now = Date.now();
    const { url, expiresAt } = signer.sign("L1", "U1", "audio/a.mp3", { baseUrl: "https://cdn.test", now });
    expect(url.startsWith("https://cdn.test/api/v1/media/audio/L1?")).toBe(true);
    expect(expiresAt.getTime()).toBeGreaterThan(now + 600_000 - 1000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(now + 1_200_000);
    const q = Object.fromEntries(new URL(url).searchParams) as Record<"u" | "exp" | "k" | "sig", string>;
    const query = { ...q, exp: Number(q.exp) };
    expect(signer.verify("L1", query, now)).toEqual({ userId: "U1", key: "audio/a.mp3" });
    expect(() => signer.verify("L2", query, now)).toThrow(/Invalid/);
    expect(() => signer.verify("L1", { ...query, u: "U2" }, now)).toThrow(/Invalid/);
    expect(() => signer.verify("L1", { ...query, k: "audio/b.mp3" }, now)).toThrow(/Invalid/);
    expect(() => signer.verify("L1", { ...query, exp: query.exp + 600 }, now)).toThrow(/Invalid/);
    expect(() => signer.verify("L1", query, expiresAt.getTime() + 1)).toThrow(/expired/);
    const visitor = signer.sign("L1", null, "audio/a.mp3", { now });
    const v = Object.fromEntries(new URL(visitor.url, "http://x").searchParams) as typeof q;
    expect(signer.verify("L1", { ...v, exp: Number(v.exp) }, now).userId).toBeNull();
  });
});

describe("GET /v1/media/audio/{lessonId}", () => {
  let url: string;
  let fx: Awaited<ReturnType<typeof courseWithLessons>>;
  let learnerToken: string;
  const file = toneMp3();
  const size = file.length;
  const urlsOf = async (token: string) => {
    const res = await t.request({ method: "GET", url: `/api/v1/courses/${fx.course.id}/lessons`, token });
    return new Map<string, string>(
      res.json().data.lessons.map((l: { id: string; audio: { url: string } | null }) => [l.id, l.audio?.url]),
    );
  };
  beforeAll(async () => {
    fx = await courseWithLessons(t, admin);
    learnerToken = (await t.createUser()).token;
    url = (await urlsOf(learnerToken)).get(fx.free.id) as string;
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

  it("answers 416 with the size for unsatisfiable or malformed ranges, in the error shape", async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, "bytes=9-1", "bytes=x-y"]) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers["content-range"], range).toBe(`bytes */${size}`);
      expect(res.headers["accept-ranges"], range).toBe("bytes");
      expect(res.json(), range).toEqual({
        statusCode: 416,
        code: "RANGE_NOT_SATISFIABLE",
        message: "Range not satisfiable",
      });
    }
  });

  it("answers several ranges with the whole file (200), and ignores a unit other than bytes", async () => {
    for (const range of ["bytes=0-99,200-299", "bytes=-100,0-0", "items=0-9"]) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(200);
      expect(res.headers["content-range"], range).toBeUndefined();
      expect(res.rawPayload.equals(file), range).toBe(true);
    }
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const whole = await t.request({ method: "HEAD", url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers["content-length"]).toBe(String(size));
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(whole.headers.etag).toBeDefined();
    expect(whole.rawPayload.length).toBe(0);
    const part = await t.request({ method: "HEAD", url, headers: { range: "bytes=-500" } });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(part.headers["content-length"]).toBe("500");
    expect(part.rawPayload.length).toBe(0);
  });

  it("answers 304 to a matching If-None-Match or If-Modified-Since, and honours If-Range", async () => {
    const first = await get();
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers["last-modified"]);
    const notModified = await get({ "if-none-match": etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect((await get({ "if-none-match": `"other", ${etag}` })).statusCode).toBe(304);
    expect((await get({ "if-modified-since": lastModified })).statusCode).toBe(304);
    expect((await get({ "if-none-match": '"other"' })).statusCode).toBe(200);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await get({ "if-modified-since": earlier })).statusCode).toBe(200);

    // If-Range: the range when the validator is the current one, else the whole file
    const cases: [string, number][] = [
      [etag, 206],
      ['"stale"', 200],
      [`W/${etag}`, 200], // weak tags never match If-Range
      [lastModified, 206],
      [earlier, 200],
    ];
    for (const [ifRange, status] of cases) {
      const res = await get({ range: "bytes=100-199", "if-range": ifRange });
      expect(res.statusCode, ifRange).toBe(status);
      expect(res.rawPayload.equals(status === 206 ? file.subarray(100, 200) : file), ifRange).toBe(true);
    }
  });

  it("refuses a tampered, expired or borrowed URL with 403 in the error shape", async () => {
    const refused = async (u: string, message: RegExp) => {
      const res = await get({ range: "bytes=0-9" }, u);
      expect(res.statusCode, u).toBe(403);
      expect(res.json(), u).toMatchObject({ statusCode: 403, code: "FORBIDDEN" });
      expect(res.json().message, u).toMatch(message);
      expect(res.headers["content-range"], u).toBeUndefined();
    };
    await refused(
      url.replace(/sig=([^&]+)/, (_m, s: string) => `sig=${s.slice(0, -2)}AA`),
      /Invalid/,
    );
    await refused(url.replace(/u=[^&]+/, "u=anon"), /Invalid/);
    await refused(
      url.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 3600}`),
      /Invalid/,
    );
    // the same signature for another lesson, or for another stored file
    await refused(url.replace(fx.free.id, fx.paid.id), /Invalid/);
    const other = await uploadAudio(t, admin);
    await refused(url.replace(/k=[^&]+/, `k=${encodeURIComponent(other.file_path)}`), /Invalid/);
    // a URL signed in the past, now expired
    const signer = createMediaUrlSigner({ secret: t.config.jwtSecret, ttlSeconds: 60 });
    const old = signer.sign(fx.free.id, null, fx.audio.file_path, { now: Date.now() - 10 * 60_000 });
    await refused(old.url, /expired/);
    // no signature at all
    expect((await get({}, url.split("?")[0] as string)).statusCode).toBe(422);
  });

  it("serves the file named in the URL: a replaced audio is not served under the old URL", async () => {
    const own = await courseWithLessons(t, admin);
    const before = (await urlsOf(admin)).get(fx.free.id) as string;
    const lessonUrl = `/api/v1/courses/${own.course.id}/lessons`;
    const oldUrl = (await t.request({ method: "GET", url: lessonUrl, token: learnerToken }))
      .json()
      .data.lessons.find((l: { id: string }) => l.id === own.free.id).audio.url as string;
    expect((await get({}, oldUrl)).statusCode).toBe(200);
    // both lessons sharing the file get another one (a new random key); the old file is released
    const other = Buffer.concat([toneMp3().subarray(0, 4096), Buffer.alloc(1000, 7)]);
    const uploaded = await t.request({
      method: "POST",
      url: "/api/v1/medias/file/upload",
      token: admin,
      ...multipart([{ name: "file", value: other, filename: "b.mp3", contentType: "audio/mpeg" }]),
    });
    expect(uploaded.statusCode).toBe(200);
    for (const lesson of [own.free, own.paid]) {
      const update = await t.request({
        method: "PUT",
        url: `${lessonUrl}/${lesson.id}`,
        token: admin,
        payload: { audio: uploaded.json().data.file_path, free: lesson === own.free },
      });
      expect(update.statusCode, update.body).toBe(200);
      // while the old file is still used elsewhere, the old URL serves it, never the new one
      const stale = await get({}, oldUrl);
      expect(stale.statusCode).toBe(lesson === own.free ? 200 : 404);
      if (stale.statusCode === 200) expect(stale.rawPayload.equals(toneMp3())).toBe(true);
    }
    const newUrl = (await t.request({ method: "GET", url: lessonUrl, token: learnerToken }))
      .json()
      .data.lessons.find((l: { id: string }) => l.id === own.free.id).audio.url as string;
    expect(newUrl).not.toBe(oldUrl);
    const fresh = await get({}, newUrl);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.rawPayload.equals(other)).toBe(true);
    expect((await get({}, before)).statusCode).toBe(200); // other lessons untouched
  });
});

describe("GET /v1/media/audio/{lessonId} behind nginx (AUDIO_ACCEL_PREFIX)", () => {
  it("checks the signature, then hands the file to nginx with X-Accel-Redirect and no body", async () => {
    const accel = await buildTestApp({ env: { AUDIO_ACCEL_PREFIX: "/_media/" }, reset: false });
    try {
      const adminToken = await accel.adminToken();
      const own = await courseWithLessons(accel, adminToken);
      const learner = await accel.createUser();
      const lessons = await accel.request({
        method: "GET",
        url: `/api/v1/courses/${own.course.id}/lessons`,
        token: learner.token,
      });
      const audioUrl = lessons.json().data.lessons[0].audio.url as string;
      const res = await accel.request({ method: "GET", url: audioUrl, headers: { range: "bytes=0-99" } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-accel-redirect"]).toBe(`/_media/${own.audio.file_path}`);
      expect(res.headers["content-type"]).toBe("audio/mpeg");
      expect(res.headers["cache-control"]).toMatch(/^private, max-age=\d+$/);
      expect(res.headers["content-range"]).toBeUndefined();
      expect(res.rawPayload.length).toBe(0);
      const forged = await accel.request({ method: "GET", url: audioUrl.replace(/u=[^&]+/, "u=someone") });
      expect(forged.statusCode).toBe(403);
      expect(forged.headers["x-accel-redirect"]).toBeUndefined();
    } finally {
      await accel.close();
    }
  });

  it("is refused with S3 storage, and must look like /path/", () => {
    const base = { DATA_DIR: "/tmp/parlons-accel-config" };
    expect(loadConfig({ ...base, AUDIO_ACCEL_PREFIX: "/_media/" }).media.accelPrefix).toBe("/_media/");
    expect(loadConfig(base).media.accelPrefix).toBeUndefined();
    for (const bad of ["_media/", "/_media", "/a b/", "http://x/"]) {
      expect(() => loadConfig({ ...base, AUDIO_ACCEL_PREFIX: bad }), bad).toThrow(/AUDIO_ACCEL_PREFIX/);
    }
    expect(() =>
      loadConfig({
        ...base,
        AUDIO_ACCEL_PREFIX: "/_media/",
        STORAGE_DRIVER: "s3",
        S3_ENDPOINT: "http://127.0.0.1:9000",
        S3_BUCKET: "parlons-media",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "secret-secret",
      }),
    ).toThrow(/AUDIO_ACCEL_PREFIX/);
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

// An upload is kept only when its MPEG frames fill the file and hold the duration its header
// claims: a 99 MB "MP3" of zeros after one frame was kept with a duration of 7 h 10 min (issue 25).
describe("POST /v1/medias/file/upload, audio that is not plausible", () => {
  const audio = (value: Buffer) =>
    upload(
      admin,
      multipart([
        { name: "type", value: "audio" },
        { name: "file", value, filename: "lesson.mp3", contentType: "audio/mpeg" },
      ]),
    );
  const stored = () =>
    existsSync(t.config.media.dir)
      ? readdirSync(t.config.media.dir, { recursive: true }).filter((f) => String(f).endsWith(".mp3"))
      : [];

  it("refuses an MP3 header followed by zeros (422 AUDIO_NOT_PLAUSIBLE) and keeps nothing", async () => {
    const before = stored().length;
    const res = await audio(mp3HeadThen(Buffer.alloc(20_000_000)));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: "AUDIO_NOT_PLAUSIBLE", errors: { file: [expect.any(String)] } });
    expect(stored().length).toBe(before);
  });

  it("refuses a real MP3 with as much junk after it", async () => {
    const res = await audio(Buffer.concat([toneMp3(), randomBytes(toneMp3().length)]));
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe("AUDIO_NOT_PLAUSIBLE");
  });

  it("keeps a VBR MP3 with a cover in its tags, with its duration", async () => {
    const res = await audio(taggedVbrMp3());
    expect(res.statusCode).toBe(200);
    expect(res.json().data.audioDuration).toBe(3);
  });
});
