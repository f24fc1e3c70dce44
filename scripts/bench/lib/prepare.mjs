// Data of the benchmark, made through the public API only: a course with lessons (half of
// them free) and a real MP3 of about 10 MB, a learner on the free plan and their token.
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./processes.mjs";

const MP3_TARGET_BYTES = 10 * 1024 * 1024;

/**
 * A valid MP3 of about 10 MB: the MPEG frames of the 10 s test tone, repeated (MPEG audio
 * is a plain sequence of frames, so the result plays and its duration can be read).
 */
function benchMp3() {
  const tone = readFileSync(path.join(root, "apps/api/test/fixtures/tone-10s.mp3"));
  const times = Math.ceil(MP3_TARGET_BYTES / tone.length);
  return Buffer.concat(Array.from({ length: times }, () => tone));
}

async function call(baseUrl, method, url, { token, body, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers,
    body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** An access token for an account (spec's POST /api/v1/user/authenticate). */
export async function signIn(baseUrl, email, password) {
  const res = await call(baseUrl, "POST", "/api/v1/user/authenticate", {
    body: { username: email, password },
  });
  return res.data.accessToken;
}

/** Makes the course, lessons, MP3 and learner; returns what the figures need. */
export async function prepareData(baseUrl, { admin, log }) {
  const adminToken = await signIn(baseUrl, admin.email, admin.password);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

  const mp3 = benchMp3();
  const form = new FormData();
  form.append("type", "audio");
  form.append("file", new Blob([mp3], { type: "audio/mpeg" }), "bench.mp3");
  const upload = await call(baseUrl, "POST", "/api/v1/medias/file/upload", { token: adminToken, form });
  const audioKey = upload.data.file_path;
  log(`uploaded a ${(mp3.length / 1024 / 1024).toFixed(1)} MB MP3 as ${audioKey}`);

  const course = (
    await call(baseUrl, "POST", "/api/v1/courses", {
      token: adminToken,
      body: {
        title_fr: `Banc d'essai ${stamp}`,
        title_en: `Benchmark ${stamp}`,
        description_fr: "Cours créé par npm run bench pour mesurer les lectures publiques et authentifiées.",
        description_en: "Course made by npm run bench to measure public and signed-in reads.",
        target_language: "en",
        level: "A1",
        active: true,
        popular: true,
      },
    })
  ).data.course;

  const lessonIds = [];
  for (let i = 1; i <= 8; i += 1) {
    const lesson = (
      await call(baseUrl, "POST", `/api/v1/courses/${course.id}/lessons`, {
        token: adminToken,
        body: {
          title_fr: `Leçon ${i}`,
          title_en: `Lesson ${i}`,
          text_fr: "Écoutez puis répétez chaque phrase.",
          text_en: "Listen, then repeat each sentence.",
          audio: `${audioKey}:${upload.data.audioDuration ?? 0}`,
          transcript: "Hello. How are you? I am fine, thank you.",
          free: i <= 4,
          active: true,
        },
      })
    ).data.lesson;
    lessonIds.push(lesson.id);
  }

  const email = `bench.${stamp}@bench.parlons.local`;
  const password = "Bench-learner-2026!";
  await call(baseUrl, "POST", "/api/v1/user/self-register", {
    body: { email, password, full_name: "Bench Learner" },
  });
  const token = await signIn(baseUrl, email, password);
  const me = await call(baseUrl, "GET", "/api/v1/user/me", { token });

  return {
    adminToken,
    course: { id: course.id, slug: course.slug },
    lessonIds,
    freeLessonId: lessonIds[0],
    audioKey,
    audioBytes: mp3.length,
    learner: { email, password, token, id: me.data?.user?.id ?? me.data?.id ?? null },
  };
}
