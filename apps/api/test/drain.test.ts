import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { multipart, toneMp3 } from "./helpers/learning";
import { ADMIN_LOGIN, apiClient, type ServerProcess, startServer } from "./helpers/server-process";

// One run is enough: the drain is the process's, whichever database is underneath.
const onPostgres = Boolean(process.env.DATABASE_URL);

/** A GET whose body the test reads when it wants: resolves with the status and the body length. */
function slowDownload(url: string) {
  let resume: () => void = () => {};
  let firstChunk: () => void = () => {};
  const started = new Promise<void>((r) => {
    firstChunk = r;
  });
  const done = new Promise<{ status: number; length: number; expected: number }>((resolve, reject) => {
    http
      .get(url, (res) => {
        let length = 0;
        res.once("data", () => {
          res.pause();
          firstChunk();
        });
        res.on("data", (c: Buffer) => {
          length += c.length;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, length, expected: Number(res.headers["content-length"]) }),
        );
        res.on("error", reject);
        resume = () => res.resume();
      })
      .on("error", reject);
  });
  return { started, done, resume: () => resume() };
}

/** A multipart upload sent in two halves: the second when `finish` is called. */
function slowUpload(url: string, token: string, body: { payload: Buffer; headers: Record<string, string> }) {
  const half = Math.floor(body.payload.length / 2);
  const req = http.request(url, {
    method: "POST",
    headers: { ...body.headers, authorization: `Bearer ${token}`, "content-length": body.payload.length },
  });
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c: Buffer) => {
        text += c.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
  });
  req.write(body.payload.subarray(0, half));
  return { done, finish: () => req.end(body.payload.subarray(half)) };
}

describe.skipIf(onPostgres)("SIGTERM drains", () => {
  const root = mkdtempSync(path.join(tmpdir(), "parlons-drain-"));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("turns ready to 503, finishes an audio stream and an upload in flight, then exits 0", async () => {
    server = await startServer({
      dataDir: path.join(root, "data"),
      port: 3234,
      env: { SHUTDOWN_DRAIN_DELAY_MS: "1500", SEED_DEMO: "false" },
    });
    const { url } = server;
    const api = apiClient(url);
    expect((await api.call("GET", "/health/ready")).json).toEqual({ status: "ready" });
    const admin = await api.login(ADMIN_LOGIN.email, ADMIN_LOGIN.password);

    // an audio long enough that its bytes cannot all sit in the socket buffers: 200 × the 10 s tone
    const long = Buffer.concat(Array.from({ length: 200 }, () => toneMp3()));
    const audioForm = multipart([
      { name: "type", value: "audio" },
      { name: "file", value: long, filename: "long.mp3", contentType: "audio/mpeg" },
    ]);
    const uploaded = await fetch(`${url}/api/v1/medias/file/upload`, {
      method: "POST",
      headers: { ...audioForm.headers, authorization: `Bearer ${admin}` },
      body: new Uint8Array(audioForm.payload),
    });
    expect(uploaded.status).toBe(200);
    const audio = ((await uploaded.json()) as { data: { file_path: string } }).data.file_path;
    const course = await api.call("POST", "/v1/courses", {
      token: admin,
      body: { title_fr: "Arrêt", title_en: "Stop", target_language: "es", level: "A1", active: true },
    });
    const courseId = course.json.data.course.id as string;
    const lesson = await api.call("POST", `/v1/courses/${courseId}/lessons`, {
      token: admin,
      body: { title_fr: "Long", title_en: "Long", audio, free: true },
    });
    expect(lesson.status).toBe(201);
    const lessons = await api.call("GET", `/v1/courses/${courseId}/lessons`);
    const audioUrl = new URL(lessons.json.data.lessons[0].audio.url as string, url).toString();

    // in flight when SIGTERM comes: an audio stream read slowly, an upload half sent
    const download = slowDownload(audioUrl);
    await download.started;
    const upload = slowUpload(
      `${url}/api/v1/medias/file/upload`,
      admin,
      multipart([
        { name: "type", value: "audio" },
        { name: "file", value: toneMp3(), filename: "tone.mp3", contentType: "audio/mpeg" },
      ]),
    );
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill("SIGTERM");

    // the load balancer's check says "stop sending" at once, while requests are still served
    let ready = await api.call("GET", "/health/ready");
    for (let i = 0; i < 20 && ready.status !== 503; i++) {
      await new Promise((r) => setTimeout(r, 50));
      ready = await api.call("GET", "/health/ready");
    }
    expect(ready.status).toBe(503);
    expect(ready.json).toEqual({ status: "draining" });

    // what was in flight finishes, after the drain delay has closed the listener
    await new Promise((r) => setTimeout(r, 2000));
    upload.finish();
    download.resume();
    const finished = await upload.done;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).data.file_path).toMatch(/\.mp3$/);
    const streamed = await download.done;
    expect(streamed.status).toBe(200);
    expect(streamed.length).toBe(long.length);
    expect(streamed.expected).toBe(long.length);

    expect(await server.exited).toBe(0);
    // and nothing listens any more
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  }, 300_000);
});
