// Audio figures (issue 9, part 4): 256 KiB Range requests at rotating offsets of the ~10 MB MP3,
// 16 connections without pipelining, through the lesson's signed URL; the reference is nginx
// (sendfile) serving the same file. Third row: Parlons behind nginx with AUDIO_ACCEL_PREFIX, nginx
// sending the file from an `internal` location (the docs/operations.md recipe).
import { chmodSync } from "node:fs";
import path from "node:path";
import { NGINX, nginxVersion, startNginx } from "../lib/nginx.mjs";

export const name = "audio";

const CHUNK = 256 * 1024;
const CONNECTIONS = 16;
const ACCEL_PREFIX = "/_parlons_media/";

async function signedAudioPath(ctx) {
  const res = await ctx.fetchRaw(`/api/v1/courses/${ctx.course.id}/lessons`, {
    authorization: `Bearer ${ctx.learner.token}`,
  });
  const lesson = JSON.parse(res.body.toString()).data.lessons.find((l) => l.id === ctx.freeLessonId);
  if (!lesson?.audio?.url) throw new Error("the free lesson has no audio URL for the learner");
  const url = new URL(lesson.audio.url, ctx.baseUrl);
  return `${url.pathname}${url.search}`;
}

/** nginx workers must be able to read DATA_DIR/media when they do not run as root. */
function openMediaToNginx(ctx) {
  const mediaDir = path.join(ctx.dataDir, "media");
  for (const dir of [ctx.tmpDir, ctx.dataDir, mediaDir, path.dirname(path.join(mediaDir, ctx.audioKey))]) {
    chmodSync(dir, 0o755);
  }
  chmodSync(path.join(mediaDir, ctx.audioKey), 0o644);
  return mediaDir;
}

export async function run(ctx) {
  const range = { size: ctx.audioBytes, chunk: CHUNK };
  const loadOpts = { connections: CONNECTIONS, pipelining: 1, range };
  let audioPath = await signedAudioPath(ctx);
  const check = await ctx.fetchRaw(audioPath, { range: `bytes=0-${CHUNK - 1}` });
  if (check.status !== 206 || check.body.length !== CHUNK) {
    throw new Error(
      `the audio route answered ${check.status} with ${check.body.length} bytes to a Range request`,
    );
  }

  await ctx.load({ ...loadOpts, path: audioPath, duration: Math.min(2, ctx.duration) }); // warm-up
  const ours = await ctx.load({ ...loadOpts, path: audioPath });
  const base = {
    unit: "req/s",
    target: "ratio>=0.8",
  };
  if (!NGINX) {
    return [
      {
        ...base,
        figure: "audio 256 KiB Range (Parlons)",
        ours: ours.rps,
        p95: ours.p95,
        p99: ours.p99,
        non2xx: ours.non2xx + ours.errors,
        note: "no nginx installed: no reference",
      },
    ];
  }

  const mediaDir = openMediaToNginx(ctx);
  const version = nginxVersion() ?? "nginx";
  const staticNginx = await startNginx({
    dir: path.join(ctx.tmpDir, "nginx-static"),
    port: ctx.port(),
    server: `    root ${mediaDir};`,
    probePath: `/${ctx.audioKey}`,
  });
  let reference;
  try {
    reference = await ctx.load({ ...loadOpts, url: `${staticNginx.url}/${ctx.audioKey}` });
  } finally {
    await staticNginx.stop();
  }
  const rows = [
    {
      ...base,
      figure: "audio 256 KiB Range, Parlons",
      ours: ours.rps,
      reference: reference.rps,
      p95: ours.p95,
      p99: ours.p99,
      non2xx: ours.non2xx + ours.errors,
      note: `ref ${version} sendfile, 1 worker, p99 ${reference.p99?.toFixed(1)} ms; ${CONNECTIONS} conn.`,
    },
  ];

  // Parlons behind nginx, answering X-Accel-Redirect (AUDIO_ACCEL_PREFIX)
  const accelFigure = "audio 256 KiB Range, nginx + X-Accel-Redirect";
  await ctx.restartServer({ AUDIO_ACCEL_PREFIX: ACCEL_PREFIX });
  try {
    // signed URLs live MEDIA_URL_TTL seconds: a new one after the restart
    audioPath = await signedAudioPath(ctx);
    const probe = await ctx.fetchRaw(audioPath, { range: "bytes=0-0" });
    const accel = probe.headers.find(([k]) => k === "x-accel-redirect")?.[1];
    if (!accel) {
      rows.push({
        ...base,
        figure: accelFigure,
        note: "skipped: this server does not answer X-Accel-Redirect (AUDIO_ACCEL_PREFIX) yet",
      });
      return rows;
    }
    const front = await startNginx({
      dir: path.join(ctx.tmpDir, "nginx-accel"),
      port: ctx.port(),
      server: `    location ${ACCEL_PREFIX} {
      internal;
      alias ${mediaDir}/;
    }
    location / {
      proxy_pass http://parlons;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }`,
      upstream: `  upstream parlons { server ${new URL(ctx.baseUrl).host}; keepalive 64; }`,
      probePath: audioPath,
    });
    try {
      await ctx.load({ ...loadOpts, url: `${front.url}${audioPath}`, duration: Math.min(2, ctx.duration) });
      const behind = await ctx.load({ ...loadOpts, url: `${front.url}${audioPath}` });
      rows.push({
        ...base,
        figure: accelFigure,
        ours: behind.rps,
        reference: reference.rps,
        p95: behind.p95,
        p99: behind.p99,
        non2xx: behind.non2xx + behind.errors,
        note: `X-Accel-Redirect ${accel}; ref: nginx alone above`,
      });
    } finally {
      await front.stop();
    }
  } finally {
    await ctx.restartServer();
  }
  return rows;
}
