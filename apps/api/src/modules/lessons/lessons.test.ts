import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, makePremium, toneMp3, uploadAudio } from "../../../test/helpers/learning";
import { lessonProgress, lessonProgressRequests } from "../../db/schema";

let t: TestContext;
let admin: string;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
let base: string;
let freeUser: { id: string; token: string };
let premiumUser: { id: string; token: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  base = `/api/v1/courses/${fx.course.id}/lessons`;
  freeUser = await t.createUser();
  premiumUser = await t.createUser();
  await makePremium(t, premiumUser.id);
});
afterAll(() => t.close());

const missing = "00000000-0000-4000-8000-000000000000";
interface Lesson {
  id: string;
  locked: boolean;
  audio: { url: string } | null;
  transcript: string | null;
  links: unknown[];
  cues: unknown[];
  audio_path?: string | null;
  active: boolean;
}
const listAs = async (token?: string) => {
  const res = await t.request({ method: "GET", url: base, token });
  expect(res.statusCode).toBe(200);
  return res.json().data as { lessons: Lesson[]; access: string };
};

describe("entitlement matrix: lesson data and audio bytes", () => {
  const who = () => ({ visitor: undefined, free: freeUser.token, premium: premiumUser.token, staff: admin });
  const expected: Record<string, { paid: boolean; access: string }> = {
    visitor: { paid: false, access: "free" },
    free: { paid: false, access: "free" },
    premium: { paid: true, access: "all" },
    staff: { paid: true, access: "all" },
  };

  it("locks paid lessons for visitors and free learners; premium and staff open everything", async () => {
    const staffList = await listAs(admin);
    const paidUrlForStaff = staffList.lessons.find((l) => l.id === fx.paid.id)?.audio?.url as string;
    for (const [name, token] of Object.entries(who())) {
      const { lessons, access } = await listAs(token);
      const exp = expected[name] as { paid: boolean; access: string };
      expect(access, name).toBe(exp.access);
      const free = lessons.find((l) => l.id === fx.free.id) as Lesson;
      const paid = lessons.find((l) => l.id === fx.paid.id) as Lesson;
      expect(free.locked, name).toBe(false);
      expect(free.audio?.url, name).toBeTruthy();
      expect(free.transcript, name).toContain("Hola");
      expect(free.cues, name).toMatchObject([
        { start: 0, end: 2.5, text: "Hola." },
        { start: 2.5, end: 10, text: "Buenos días." },
      ]);
      expect(paid.locked, name).toBe(!exp.paid);
      if (exp.paid) {
        expect(paid.transcript, name).toBeTruthy();
        expect(paid.audio?.url, name).toBeTruthy();
      } else {
        expect(paid.audio, name).toBeNull();
        expect(paid.transcript, name).toBeNull();
        expect(paid.links, name).toEqual([]);
        expect(paid.cues, name).toEqual([]);
      }
      expect("audio_path" in free, name).toBe(name === "staff");
      // the bytes: the free lesson's URL plays for all; the paid one only when open
      const freeAudio = await t.request({ method: "GET", url: free.audio?.url as string });
      expect(freeAudio.statusCode, name).toBe(200);
      expect(freeAudio.rawPayload.equals(toneMp3()), name).toBe(true);
      if (exp.paid) {
        const paidAudio = await t.request({
          method: "GET",
          url: paid.audio?.url as string,
          headers: { range: "bytes=0-9" },
        });
        expect(paidAudio.statusCode, name).toBe(206);
        expect(paidAudio.rawPayload.equals(toneMp3().subarray(0, 10)), name).toBe(true);
      }
    }
    // someone who guesses the path (or reuses staff's URL with another user) is refused
    const guessed = paidUrlForStaff.replace(/u=[^&]+/, `u=${freeUser.id}`);
    expect((await t.request({ method: "GET", url: guessed })).statusCode).toBe(403);
    const noSig = `/api/v1/media/audio/${fx.paid.id}?u=anon&exp=9999999999&k=${fx.audio.file_path}&sig=x`;
    expect((await t.request({ method: "GET", url: noSig })).statusCode).toBe(403);
  });

  it("a plan that ended: no new audio URL at once, and the URL handed out stops at its expiry", async () => {
    const user = await t.createUser();
    await makePremium(t, user.id);
    const paid = (await listAs(user.token)).lessons.find((l) => l.id === fx.paid.id) as Lesson;
    const url = paid.audio?.url as string;
    expect((await t.request({ method: "GET", url })).statusCode).toBe(200);
    await t.app.deps.database.db.execute(
      // the subscription ends
      (await import("drizzle-orm"))
        .sql`update customer_plans set status = 'EXPIRED' where user_id = ${user.id}`,
    );
    // a write behind the services' back is announced as the billing service announces its own
    t.app.deps.changes.publish(`user:${user.id}`);
    const after = (await listAs(user.token)).lessons.find((l) => l.id === fx.paid.id) as Lesson;
    expect(after.locked).toBe(true);
    expect(after.audio).toBeNull();
    // the signed URL is the whole authorisation (no database per Range request): it plays until
    // its expiry, at most 2×MEDIA_URL_TTL after it was made, and not a moment longer
    expect((await t.request({ method: "GET", url })).statusCode).toBe(200);
    const expiresAt = Date.parse((paid.audio as unknown as { expires_at: string }).expires_at);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(2 * t.config.media.urlTtl * 1000);
    vi.useFakeTimers({ toFake: ["Date"], now: expiresAt });
    try {
      const expired = await t.request({ method: "GET", url });
      expect(expired.statusCode).toBe(403);
      expect(expired.json().message).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("staff see inactive lessons; learners do not, not even through POST /active", async () => {
    const res = await t.request({
      method: "POST",
      url: base,
      token: admin,
      payload: { title_fr: "Brouillon", title_en: "Draft", active: false, free: true },
    });
    expect(res.statusCode).toBe(201);
    const draft = res.json().data.lesson;
    expect((await listAs(admin)).lessons.map((l) => l.id)).toContain(draft.id);
    expect((await listAs(freeUser.token)).lessons.map((l) => l.id)).not.toContain(draft.id);
    const active = await t.request({ method: "POST", url: `${base}/active`, token: admin });
    expect(active.statusCode).toBe(200);
    expect(active.json().data.lessons.map((l: Lesson) => l.id)).not.toContain(draft.id);
    await t.request({ method: "DELETE", url: `${base}/${draft.id}`, token: admin });
  });

  it("404 for an unknown or inactive course, 400 for a malformed id", async () => {
    expect((await t.request({ method: "GET", url: `/api/v1/courses/${missing}/lessons` })).statusCode).toBe(
      404,
    );
    expect((await t.request({ method: "GET", url: "/api/v1/courses/xyz/lessons" })).statusCode).toBe(400);
  });
});

describe("lesson management (staff)", () => {
  it("creates with a position at the end; validates audio, links and fields", async () => {
    const audio = await uploadAudio(t, admin);
    const res = await t.request({
      method: "POST",
      url: base,
      token: admin,
      payload: { title_fr: "Trois", title_en: "Three", audio: audio.file_path },
    });
    expect(res.statusCode).toBe(201);
    const lesson = res.json().data.lesson;
    expect(lesson).toMatchObject({
      position: 2,
      audio_path: audio.file_path,
      duration: audio.audioDuration,
      free: false,
    });
    const bad = await t.request({
      method: "POST",
      url: base,
      token: admin,
      payload: {
        title_fr: "",
        title_en: "x",
        links: [{ label: "a", url: "not a url" }],
        audio: "../etc/passwd",
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(["title_fr", "links.0.url", "audio"]),
    );
    const unknownAudio = await t.request({
      method: "POST",
      url: base,
      token: admin,
      payload: { title_fr: "a", title_en: "b", audio: "audio/nope.mp3:12" },
    });
    expect(unknownAudio.statusCode).toBe(422);
    expect(
      (await t.request({ method: "POST", url: base, payload: { title_fr: "a", title_en: "b" } })).statusCode,
    ).toBe(401);
    expect(
      (
        await t.request({
          method: "POST",
          url: base,
          token: freeUser.token,
          payload: { title_fr: "a", title_en: "b" },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: "POST",
          url: `/api/v1/courses/${missing}/lessons`,
          token: admin,
          payload: { title_fr: "a", title_en: "b" },
        })
      ).statusCode,
    ).toBe(404);
    await t.request({ method: "DELETE", url: `${base}/${lesson.id}`, token: admin });
  });

  it("PUT updates partially and deletes a replaced audio file nobody uses", async () => {
    const first = await uploadAudio(t, admin);
    const second = await uploadAudio(t, admin);
    const created = (
      await t.request({
        method: "POST",
        url: base,
        token: admin,
        payload: { title_fr: "a", title_en: "b", audio: first.file_path },
      })
    ).json().data.lesson;
    const url = `${base}/${created.id}`;
    const res = await t.request({
      method: "PUT",
      url,
      token: admin,
      payload: { title_en: "B", audio: second.file_path },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.lesson).toMatchObject({
      title_en: "B",
      title_fr: "a",
      audio_path: second.file_path,
    });
    expect(await t.app.deps.services.media.storage.stat(first.file_path)).toBeNull();
    expect(await t.app.deps.services.media.storage.stat(second.file_path)).not.toBeNull();
    // a change of one field keeps every other stored field (no creation default sneaks in)
    await t.request({
      method: "PUT",
      url,
      token: admin,
      payload: {
        free: true,
        active: false,
        transcript: "Bonjour",
        text_fr: "Texte",
        links: [{ label: "L", url: "https://example.org" }],
      },
    });
    const kept = (await t.request({ method: "PUT", url, token: admin, payload: { title_fr: "A" } })).json()
      .data.lesson;
    expect(kept).toMatchObject({
      title_fr: "A",
      free: true,
      active: false,
      transcript: "Bonjour",
      text_fr: "Texte",
      links: [{ label: "L", url: "https://example.org" }],
      audio_path: second.file_path,
    });
    expect(await t.app.deps.services.media.storage.stat(second.file_path)).not.toBeNull();
    expect((await t.request({ method: "PUT", url, token: freeUser.token, payload: {} })).statusCode).toBe(
      403,
    );
    expect(
      (await t.request({ method: "PUT", url: `${base}/${missing}`, token: admin, payload: {} })).statusCode,
    ).toBe(404);
    const del = await t.request({ method: "DELETE", url, token: admin });
    expect(del.statusCode).toBe(200);
    expect(await t.app.deps.services.media.storage.stat(second.file_path)).toBeNull();
    expect((await t.request({ method: "DELETE", url, token: admin })).statusCode).toBe(404);
    // the shared file of the fixture's two lessons stays while one of them uses it
    expect(await t.app.deps.services.media.storage.stat(fx.audio.file_path)).not.toBeNull();
  });

  it("update-by-column changes one whitelisted column", async () => {
    const url = `${base}/update-by-column/${fx.paid.id}`;
    const res = await t.request({
      method: "PUT",
      url,
      token: admin,
      payload: { column: "position", value: 7 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.lesson.position).toBe(7);
    expect(
      (
        await t.request({ method: "PUT", url, token: admin, payload: { column: "free", value: false } })
      ).json().data.lesson.free,
    ).toBe(false);
    for (const payload of [
      { column: "title_fr", value: "x" },
      { column: "position", value: "first" },
      { column: "course_id", value: missing },
    ]) {
      expect(
        (await t.request({ method: "PUT", url, token: admin, payload })).statusCode,
        JSON.stringify(payload),
      ).toBe(422);
    }
    expect(
      (
        await t.request({
          method: "PUT",
          url,
          token: freeUser.token,
          payload: { column: "free", value: true },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: "PUT",
          url: `${base}/update-by-column/${missing}`,
          token: admin,
          payload: { column: "free", value: true },
        })
      ).statusCode,
    ).toBe(404);
  });

  it("update-links checks every URL with the spec's helper", async () => {
    const url = `${base}/update-links/${fx.free.id}`;
    const links = [
      { label: "Wiki", url: "https://en.wikipedia.org/wiki/Spanish_language" },
      { label: "Local", url: "localhost:3000/docs?x=1#top" },
    ];
    const res = await t.request({ method: "PUT", url, token: admin, payload: { links } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.lesson.links).toEqual(links);
    const bad = await t.request({
      method: "PUT",
      url,
      token: admin,
      payload: { links: [{ label: "x", url: "javascript:alert(1)" }] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors["links.0.url"]).toEqual(["Please enter a valid URL"]);
    expect(
      (await t.request({ method: "PUT", url, token: freeUser.token, payload: { links } })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: "PUT",
          url: `${base}/update-links/${missing}`,
          token: admin,
          payload: { links },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe("POST done-customer", () => {
  const url = () => `${base}/done-customer`;

  it("marks done and undoes, saves the position and counts plays", async () => {
    const user = await t.createUser();
    const post = (payload: object) => t.request({ method: "POST", url: url(), token: user.token, payload });
    let res = await post({ lesson_id: fx.free.id, played: true, last_position: 4.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.progress).toMatchObject({
      lesson_id: fx.free.id,
      done: false,
      last_position: 4.5,
      play_count: 1,
    });
    res = await post({ lesson_id: fx.free.id, done: true, played: true });
    expect(res.json().data.progress).toMatchObject({ done: true, last_position: 4.5, play_count: 2 });
    expect(res.json().data.progress.done_at).toBeTruthy();
    res = await post({ lesson_id: fx.free.id, done: false });
    expect(res.json().data.progress).toMatchObject({ done: false, done_at: null });
    res = await post({ lesson_id: fx.free.id, last_position: 99_999 });
    expect(res.statusCode).toBe(422);
    res = await post({ lesson_id: fx.free.id, last_position: 5000 });
    expect(res.json().data.progress.last_position).toBe(fx.audio.audioDuration);
    const listed = (await listAs(user.token)).lessons.find((l) => l.id === fx.free.id) as Lesson & {
      progress: { last_position: number };
    };
    expect(listed.progress.last_position).toBe(fx.audio.audioDuration);
  });

  it("refuses a locked lesson (403), an unknown one (404), bad bodies (422), visitors (401)", async () => {
    const post = (payload: object, token?: string) =>
      t.request({ method: "POST", url: url(), token, payload });
    const premiumOnly = await post({ lesson_id: fx.paid.id, done: true }, freeUser.token);
    expect(premiumOnly.statusCode).toBe(403);
    expect(premiumOnly.json().code).toBe("PREMIUM_REQUIRED");
    expect((await post({ lesson_id: fx.paid.id, done: true }, premiumUser.token)).statusCode).toBe(200);
    expect((await post({ lesson_id: missing, done: true }, freeUser.token)).statusCode).toBe(404);
    expect((await post({ lesson_id: fx.free.id }, freeUser.token)).statusCode).toBe(422);
    expect((await post({ lesson_id: "x", done: true }, freeUser.token)).statusCode).toBe(422);
    expect((await post({ lesson_id: fx.free.id, done: true })).statusCode).toBe(401);
  });

  it("an Idempotency-Key applies a call once: a retry (queued offline, answer lost) changes nothing", async () => {
    const user = await t.createUser();
    const post = (payload: object, key?: string) =>
      t.request({
        method: "POST",
        url: url(),
        token: user.token,
        payload,
        headers: key ? { "idempotency-key": key } : {},
      });
    const key = "0b6f7a52-3c1e-4d7e-9f00-8a1b2c3d4e5f";
    let res = await post({ lesson_id: fx.free.id, played: true, done: true, last_position: 3 }, key);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.progress).toMatchObject({ done: true, play_count: 1, last_position: 3 });
    // the same call again, twice at once: answered with the progress as it stands, not applied
    const again = await Promise.all([
      post({ lesson_id: fx.free.id, played: true, done: true, last_position: 3 }, key),
      post({ lesson_id: fx.free.id, played: true, done: true, last_position: 3 }, key),
    ]);
    for (const r of again) {
      expect(r.statusCode).toBe(200);
      expect(r.json().data.progress).toMatchObject({ done: true, play_count: 1 });
    }
    // a later call with its own key is applied; one already used by then does not undo it
    res = await post({ lesson_id: fx.free.id, played: true, last_position: 7 }, "second-key-0001");
    expect(res.json().data.progress).toMatchObject({ play_count: 2, last_position: 7 });
    res = await post({ lesson_id: fx.free.id, done: false, last_position: 1 }, key);
    expect(res.json().data.progress).toMatchObject({ done: true, play_count: 2, last_position: 7 });
    // without a key every call applies (as before)
    res = await post({ lesson_id: fx.free.id, played: true });
    expect(res.json().data.progress.play_count).toBe(3);
    // keys are per learner: another learner's call with the same key is applied
    const other = await t.createUser();
    res = await t.request({
      method: "POST",
      url: url(),
      token: other.token,
      payload: { lesson_id: fx.free.id, played: true },
      headers: { "idempotency-key": key },
    });
    expect(res.json().data.progress.play_count).toBe(1);
    const rows = await t.database.db
      .select()
      .from(lessonProgressRequests)
      .where(eq(lessonProgressRequests.userId, user.id));
    expect(rows.map((r) => r.key).sort()).toEqual([key, "second-key-0001"]);
  });

  it("refuses a malformed Idempotency-Key with 422", async () => {
    const user = await t.createUser();
    const res = await t.request({
      method: "POST",
      url: url(),
      token: user.token,
      payload: { lesson_id: fx.free.id, played: true },
      headers: { "idempotency-key": "bad key!" },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBeTruthy();
  });

  it("20 concurrent position saves leave one row holding one of the sent positions", async () => {
    const user = await t.createUser();
    const positions = Array.from({ length: 20 }, (_, i) => i * 0.4 + 0.1);
    const results = await Promise.all(
      positions.map((p) =>
        t.request({
          method: "POST",
          url: url(),
          token: user.token,
          payload: { lesson_id: fx.free.id, last_position: p, played: true },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(positions.map(() => 200));
    const rows = await t.database.db
      .select()
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, user.id), eq(lessonProgress.lessonId, fx.free.id)));
    expect(rows).toHaveLength(1);
    expect(positions).toContain(rows[0]?.lastPosition);
    expect(rows[0]?.playCount).toBe(20);
  });
});
