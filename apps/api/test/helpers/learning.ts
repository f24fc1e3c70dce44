import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { customerPlans, plans, users } from "../../src/db/schema";
import type { TestContext } from "./build";

export const fixtures = path.resolve(import.meta.dirname, "../fixtures");
export const toneMp3 = () => readFileSync(path.join(fixtures, "tone-10s.mp3"));
/** A real MP3's first frames (ID3-less, 32 kbit/s), then `rest`: a header in front of anything. */
export const mp3HeadThen = (rest: Buffer) => Buffer.concat([toneMp3().subarray(0, 1000), rest]);
/** A 3 s VBR MP3 made by lame, with an ID3v2 tag (title, a small cover) and an ID3v1 tag. */
export const taggedVbrMp3 = () => readFileSync(path.join(fixtures, "tagged-vbr-3s.mp3"));

export interface Part {
  name: string;
  value: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body. */
export function multipart(parts: Part[]) {
  const boundary = `----parlons${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ""}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads an MP3 (the 10 s tone by default) and returns the upload's data. */
export async function uploadAudio(t: TestContext, token: string, data = toneMp3()) {
  const body = multipart([
    { name: "type", value: "audio" },
    { name: "file", value: data, filename: "tone.mp3", contentType: "audio/mpeg" },
  ]);
  const res = await t.request({ method: "POST", url: "/api/v1/medias/file/upload", token, ...body });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { file_path: string; audioDuration: number };
}

/** A real 1×1 PNG (file-type checks the header chunk, not only the signature). */
export const tinyPng = () =>
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "base64",
  );

/** Uploads an image (the tiny PNG by default) and returns its file_path, for a course cover. */
export async function uploadCover(t: TestContext, token: string, data = tinyPng()): Promise<string> {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/medias/file/upload",
    token,
    ...multipart([
      { name: "type", value: "image" },
      { name: "file", value: data, filename: "cover.png" },
    ]),
  });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().data.file_path as string;
}

/** Puts the user on a premium plan (amount > 0) with an ACTIVE subscription. */
export async function makePremium(t: TestContext, userId: string) {
  const [plan] = await t.database.db
    .insert(plans)
    .values({ name: "Premium", nameFr: "Premium", amount: 999 })
    .returning();
  if (!plan) throw new Error("no plan");
  await t.database.db.update(users).set({ planId: plan.id }).where(eq(users.id, userId));
  await t.database.db
    .insert(customerPlans)
    .values({ userId, planId: plan.id, status: "ACTIVE", provider: "demo" });
  // written behind the billing service's back: announce it as the service would
  t.app.deps.changes.publish(`user:${userId}`);
}

export const courseInput = (over: Record<string, unknown> = {}) => ({
  title_fr: "Espagnol pour débutants",
  title_en: "Spanish for beginners",
  description_fr: "Premiers pas",
  description_en: "First steps",
  target_language: "es",
  level: "A1",
  active: true,
  ...over,
});

/** A course with a free and a paid lesson, both with the tone as audio. */
/** A course made by `token` (an admin's) from `courseInput(over)`. */
export async function createCourse(t: TestContext, token: string, over: Record<string, unknown> = {}) {
  const res = await t.request({ method: "POST", url: "/api/v1/courses", token, payload: courseInput(over) });
  if (res.statusCode !== 201) throw new Error(`course not created: ${res.statusCode} ${res.body}`);
  return res.json().data.course as { id: string };
}

export async function courseWithLessons(t: TestContext, adminToken: string) {
  const audio = await uploadAudio(t, adminToken);
  const course = (
    await t.request({ method: "POST", url: "/api/v1/courses", token: adminToken, payload: courseInput() })
  ).json().data.course as { id: string; slug: string };
  const create = async (payload: object) => {
    const res = await t.request({
      method: "POST",
      url: `/api/v1/courses/${course.id}/lessons`,
      token: adminToken,
      payload,
    });
    if (res.statusCode !== 201) throw new Error(`lesson create failed: ${res.statusCode} ${res.body}`);
    return res.json().data.lesson as { id: string };
  };
  const free = await create({
    title_fr: "Bonjour",
    title_en: "Hello",
    audio: `${audio.file_path}:${audio.audioDuration}`,
    transcript: "[00:00] Hola.\n[00:02.5] Buenos días.",
    links: [{ label: "Dictionnaire", url: "https://www.wordreference.com" }],
    free: true,
  });
  const paid = await create({
    title_fr: "Au marché",
    title_en: "At the market",
    text_fr: "Acheter des fruits",
    audio: audio.file_path,
    transcript: "[00:00] ¿Cuánto cuesta?",
    free: false,
  });
  return { course, free, paid, audio };
}

/** An offer sold once (interval "once") opening these courses, 49.00 € unless told; its id. */
export async function createOnceOffer(
  t: TestContext,
  adminToken: string,
  courseIds: string[],
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/plans",
    token: adminToken,
    payload: {
      name: "Course for life",
      name_fr: "Cours à vie",
      amount: 4900,
      interval: "once",
      scope: "courses",
      course_ids: courseIds,
      ...over,
    },
  });
  if (res.statusCode !== 201) throw new Error(`offer not created: ${res.body}`);
  return res.json().data.plan.id as string;
}
