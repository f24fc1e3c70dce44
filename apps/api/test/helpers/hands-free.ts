import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { reviewCards } from "../../src/db/schema";
import type { TestContext } from "./build";
import { courseInput, makePremium, uploadAudio } from "./learning";
import { tonesMp3 } from "./session-audio";

/** The hands-free session's fixture (practice tests): lines of tones, so that the MP3's cuts are recognised. */
// the lesson's audio: each line a tone of its own, so that the MP3's cuts are recognised
export const FREE_LINES = [
  {
    start: 0,
    end: 1.5,
    hz: 440,
    text: "Buenos días.",
    translation_fr: "Bonjour.",
    translation_en: "Good morning.",
  },
  {
    start: 1.5,
    end: 3.5,
    hz: 660,
    text: "Quisiera un café.",
    translation_fr: "",
    translation_en: "I would like a coffee.",
  },
  // no translation: only ever echoed
  { start: 3.5, end: 4.5, hz: 990, text: "Gracias.", translation_fr: "", translation_en: "" },
];
export const PAID_LINE = {
  start: 4.5,
  end: 5.5,
  hz: 1320,
  text: "¿Cuánto cuesta?",
  translation_fr: "",
  translation_en: "",
};
export const TONES = [...FREE_LINES, PAID_LINE].map((l) => l.hz);

export interface HandsFreeFixture {
  course: string;
  free: string;
  paid: string;
}

/** A course of a free lesson (three lines) and a paid one (one line), cut from one MP3 of tones. */
export async function handsFreeCourse(t: TestContext): Promise<HandsFreeFixture> {
  const admin = await t.adminToken();
  const audio = await uploadAudio(t, admin, Buffer.from(tonesMp3([...FREE_LINES, PAID_LINE], 6)));
  const course = (
    await t.request({ method: "POST", url: "/api/v1/courses", token: admin, payload: courseInput() })
  ).json().data.course.id as string;
  const lesson = async (free: boolean, lines: (typeof FREE_LINES)[number][]) => {
    const made = await t.request({
      method: "POST",
      url: `/api/v1/courses/${course}/lessons`,
      token: admin,
      payload: {
        title_fr: "Leçon",
        title_en: "Lesson",
        audio: `${audio.file_path}:${audio.audioDuration}`,
        free,
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.lesson.id as string;
    const put = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${course}/lessons/${id}/cues`,
      token: admin,
      payload: { cues: lines.map(({ hz: _hz, ...cue }) => cue) },
    });
    expect(put.statusCode, put.body).toBe(200);
    return id;
  };
  return { course, free: await lesson(true, FREE_LINES), paid: await lesson(false, [PAID_LINE]) };
}

/** A learner who finished the free lesson (and the paid one, premium): its lines in their deck. */
export async function learner(t: TestContext, fx: HandsFreeFixture, opts: { premium?: boolean } = {}) {
  const user = await t.createUser();
  if (opts.premium) await makePremium(t, user.id);
  for (const lesson of opts.premium ? [fx.free, fx.paid] : [fx.free]) {
    const done = await t.request({
      method: "POST",
      url: `/api/v1/courses/${fx.course}/lessons/done-customer`,
      token: user.token,
      payload: { lesson_id: lesson, done: true },
    });
    expect(done.statusCode, done.body).toBe(200);
  }
  return user;
}

/** GET /v1/practice/hands-free/audio.mp3 as the learner. */
export const download = (t: TestContext, token: string, query = "") =>
  t.request({ method: "GET", url: `/api/v1/practice/hands-free/audio.mp3${query}`, token });

/** Every card of the learner graded Easy, then due again now: lines with a translation are recalled. */
export async function inReview(t: TestContext, userId: string, token: string) {
  const cards = await t.database.db.select().from(reviewCards).where(eq(reviewCards.userId, userId));
  for (const card of cards) {
    const graded = await t.request({
      method: "POST",
      url: "/api/v1/review/grade",
      token,
      payload: { review_id: randomUUID(), card_id: card.id, rating: 4 },
    });
    expect(graded.statusCode, graded.body).toBe(200);
  }
  await t.database.db
    .update(reviewCards)
    .set({ due: new Date(Date.now() - 60_000) })
    .where(eq(reviewCards.userId, userId));
  return cards;
}
