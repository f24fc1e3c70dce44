import { MAX_RECORDING_BYTES } from "@parlons/contract";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, multipart, tinyPng } from "../../../test/helpers/learning";
import { lessonCues, lineRecordings, storageTrash } from "../../db/schema";

let t: TestContext;
let admin: string;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
let freeCues: string[];
let paidCue: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  const cuesOf = async (lessonId: string) =>
    (
      await t.database.db
        .select({ id: lessonCues.id })
        .from(lessonCues)
        .where(eq(lessonCues.lessonId, lessonId))
        .orderBy(asc(lessonCues.start))
    ).map((c) => c.id);
  freeCues = await cuesOf(fx.free.id);
  paidCue = (await cuesOf(fx.paid.id))[0] as string;
});
afterAll(() => t.close());

/** The start of a WebM file as Chrome's MediaRecorder writes it (EBML header, DocType "webm"), then audio-ish bytes. */
function webm(fill = 1, size = 600): Buffer {
  const docType = Buffer.concat([Buffer.from([0x42, 0x82, 0x84]), Buffer.from("webm")]);
  const header = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | docType.length]), docType]);
  return Buffer.concat([header, Buffer.alloc(size, fill)]);
}

const keep = (token: string | undefined, cueId: string, file: Buffer, filename = "line.webm") =>
  t.request({
    method: "POST",
    url: "/api/v1/recordings",
    token,
    ...multipart([
      { name: "cue_id", value: cueId },
      { name: "file", value: file, filename, contentType: "audio/webm" },
    ]),
  });
const list = (token: string, lessonId?: string) =>
  t.request({
    method: "GET",
    url: `/api/v1/recordings${lessonId ? `?lesson_id=${lessonId}` : ""}`,
    token,
  });

describe("recordings kept on the account", () => {
  it("keeps one per line, lists it, gives its bytes back to its owner, and replaces it when kept again", async () => {
    const learner = await t.createUser();
    const first = await keep(learner.token, freeCues[0] as string, webm(1));
    expect(first.statusCode, first.body).toBe(201);
    const kept = first.json().data.recording;
    expect(kept).toMatchObject({
      cue_id: freeCues[0],
      lesson_id: fx.free.id,
      mime_type: "audio/webm",
      size: webm(1).length,
    });

    const audio = await t.request({
      method: "GET",
      url: `/api/v1/recordings/${kept.id}/audio`,
      token: learner.token,
    });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/webm");
    expect(audio.rawPayload.equals(webm(1))).toBe(true);

    const again = await keep(learner.token, freeCues[0] as string, webm(2, 900));
    expect(again.statusCode).toBe(201);
    const replaced = again.json().data.recording;
    const mine = (await list(learner.token, fx.free.id)).json().data.recordings;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: replaced.id, size: webm(2, 900).length });
    const newBytes = await t.request({
      method: "GET",
      url: `/api/v1/recordings/${replaced.id}/audio`,
      token: learner.token,
    });
    expect(newBytes.rawPayload.equals(webm(2, 900))).toBe(true);
    // the replaced file is gone from the storage
    const [row] = await t.database.db.select().from(lineRecordings).where(eq(lineRecordings.id, replaced.id));
    expect(await t.app.deps.services.media.storage.stat(row?.storageKey as string)).not.toBeNull();

    expect((await keep(learner.token, freeCues[1] as string, webm(3))).statusCode).toBe(201);
    expect((await list(learner.token)).json().data.recordings).toHaveLength(2);
    expect((await list(learner.token, fx.paid.id)).json().data.recordings).toEqual([]);
  });

  it("only its owner reads or deletes a recording; anonymous callers are asked to sign in", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const { id } = (await keep(owner.token, freeCues[0] as string, webm())).json().data.recording;

    expect((await keep(undefined, freeCues[0] as string, webm())).statusCode).toBe(401);
    expect((await t.request({ method: "GET", url: `/api/v1/recordings/${id}/audio` })).statusCode).toBe(401);
    expect((await t.request({ method: "GET", url: "/api/v1/recordings" })).statusCode).toBe(401);

    const theirs = await t.request({
      method: "GET",
      url: `/api/v1/recordings/${id}/audio`,
      token: other.token,
    });
    expect(theirs.statusCode).toBe(404);
    const del = await t.request({ method: "DELETE", url: `/api/v1/recordings/${id}`, token: other.token });
    expect(del.statusCode).toBe(404);
    expect((await list(other.token)).json().data.recordings).toEqual([]);

    const [row] = await t.database.db.select().from(lineRecordings).where(eq(lineRecordings.id, id));
    const mine = await t.request({ method: "DELETE", url: `/api/v1/recordings/${id}`, token: owner.token });
    expect(mine.statusCode).toBe(200);
    expect((await list(owner.token)).json().data.recordings).toEqual([]);
    const gone = await t.request({
      method: "GET",
      url: `/api/v1/recordings/${id}/audio`,
      token: owner.token,
    });
    expect(gone.statusCode).toBe(404);
    expect(await t.app.deps.services.media.storage.stat(row?.storageKey as string)).toBeNull();
    const twice = await t.request({ method: "DELETE", url: `/api/v1/recordings/${id}`, token: owner.token });
    expect(twice.statusCode).toBe(404);
  });

  it("refuses too large (413), what is not recorded audio (415), missing fields (422), unknown lines (404) and closed lessons (403)", async () => {
    const learner = await t.createUser();
    const big = await keep(learner.token, freeCues[0] as string, webm(1, MAX_RECORDING_BYTES));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE", errors: { file: [expect.any(String)] } });

    const png = await keep(learner.token, freeCues[0] as string, tinyPng(), "line.webm");
    expect(png.statusCode).toBe(415);
    expect(png.json().code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const text = await keep(learner.token, freeCues[0] as string, Buffer.from("not a recording at all"));
    expect(text.statusCode).toBe(415);

    const noCue = await t.request({
      method: "POST",
      url: "/api/v1/recordings",
      token: learner.token,
      ...multipart([{ name: "file", value: webm(), filename: "a.webm" }]),
    });
    expect(noCue.statusCode).toBe(422);
    expect(noCue.json().errors.cue_id).toBeDefined();
    const noFile = await t.request({
      method: "POST",
      url: "/api/v1/recordings",
      token: learner.token,
      ...multipart([{ name: "cue_id", value: freeCues[0] as string }]),
    });
    expect(noFile.statusCode).toBe(422);
    const json = await t.request({
      method: "POST",
      url: "/api/v1/recordings",
      token: learner.token,
      payload: { cue_id: freeCues[0] },
    });
    expect(json.statusCode).toBe(415);

    const unknown = await keep(learner.token, "00000000-0000-4000-8000-000000000000", webm());
    expect(unknown.statusCode).toBe(404);
    const closed = await keep(learner.token, paidCue, webm());
    expect(closed.statusCode).toBe(403);
    expect((await list(learner.token)).json().data.recordings).toEqual([]);
  });

  it("are in the data export and are deleted with the account, bytes included", async () => {
    const learner = await t.createUser();
    const { id } = (await keep(learner.token, freeCues[1] as string, webm())).json().data.recording;
    const [row] = await t.database.db.select().from(lineRecordings).where(eq(lineRecordings.id, id));
    const exported = await t.request({
      method: "POST",
      url: "/api/v1/user/me/data-export",
      token: learner.token,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(JSON.stringify(exported.json())).toContain(id);

    const erased = await t.request({
      method: "POST",
      url: "/api/v1/user/me/delete",
      token: learner.token,
      payload: { password: PASSWORD },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(
      await t.database.db.select().from(lineRecordings).where(eq(lineRecordings.userId, learner.id)),
    ).toEqual([]);
    expect(await t.app.deps.services.media.storage.stat(row?.storageKey as string)).toBeNull();
  });
});

describe("the files of recordings whose lines staff delete", () => {
  const storage = () => t.app.deps.services.media.storage;
  const exists = async (key: string) => (await storage().stat(key)) !== null;

  /** A new course whose free lesson's two lines a learner recorded; the recordings' keys by line. */
  async function recorded() {
    const course = await courseWithLessons(t, admin);
    const learner = await t.createUser();
    const cues = await t.database.db
      .select({ id: lessonCues.id })
      .from(lessonCues)
      .where(eq(lessonCues.lessonId, course.free.id))
      .orderBy(asc(lessonCues.start));
    const keys: string[] = [];
    for (const { id } of cues) {
      const kept = await keep(learner.token, id, webm());
      expect(kept.statusCode, kept.body).toBe(201);
      const [row] = await t.database.db
        .select()
        .from(lineRecordings)
        .where(eq(lineRecordings.id, kept.json().data.recording.id));
      keys.push(row?.storageKey as string);
      expect(await exists(row?.storageKey as string)).toBe(true);
    }
    const rowsLeft = async () =>
      (await t.database.db.select().from(lineRecordings).where(eq(lineRecordings.userId, learner.id))).map(
        (r) => r.storageKey,
      );
    return { course, cues: cues.map((c) => c.id), keys, rowsLeft };
  }
  type Recorded = Awaited<ReturnType<typeof recorded>>;
  const lessonUrl = (c: { course: { id: string } }, id: string) =>
    `/api/v1/courses/${c.course.id}/lessons/${id}`;

  /** The lines editor saving the free lesson with its first line only. */
  const keepFirstLineOnly = (r: Recorded) =>
    t.request({
      method: "PUT",
      url: `${lessonUrl(r.course, r.course.free.id)}/cues`,
      token: admin,
      payload: { cues: [{ id: r.cues[0], start: 0, end: 2.5, text: "Hola." }] },
    });

  it("a line taken out in the lines editor takes its recordings' files; the kept line keeps its own", async () => {
    const r = await recorded();
    const res = await keepFirstLineOnly(r);
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.rowsLeft()).toEqual([r.keys[0]]);
    expect(await exists(r.keys[0] as string)).toBe(true);
    expect(await exists(r.keys[1] as string)).toBe(false);
  });

  const takesAll: [string, (r: Recorded) => Parameters<TestContext["request"]>[0]][] = [
    [
      "lines replaced by a new transcript in the lesson form",
      (r) => ({
        method: "PUT",
        url: lessonUrl(r.course, r.course.free.id),
        payload: { transcript: "[00:00] Otra cosa." },
      }),
    ],
    ["a deleted lesson", (r) => ({ method: "DELETE", url: lessonUrl(r.course, r.course.free.id) })],
    [
      "a deleted course",
      (r) => ({ method: "DELETE", url: `/api/v1/courses/${r.course.course.id}?force=true` }),
    ],
  ];
  it.each(takesAll)("%s take(s) the files of their lines' recordings", async (_, request) => {
    const r = await recorded();
    const res = await t.request({ ...request(r), token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(await r.rowsLeft()).toEqual([]);
    for (const key of r.keys) expect(await exists(key)).toBe(false);
  });

  it("a file the storage fails to delete does not fail the staff's delete, and the sweep deletes it later", async () => {
    const r = await recorded();
    const failing = vi.spyOn(storage(), "delete").mockRejectedValue(new Error("storage unreachable"));
    try {
      const line = await keepFirstLineOnly(r);
      expect(line.statusCode, line.body).toBe(200);
      const lesson = await t.request({
        method: "DELETE",
        url: lessonUrl(r.course, r.course.free.id),
        token: admin,
      });
      expect(lesson.statusCode, lesson.body).toBe(200);
      const course = await t.request({
        method: "DELETE",
        url: `/api/v1/courses/${r.course.course.id}?force=true`,
        token: admin,
      });
      expect(course.statusCode, course.body).toBe(200);
      expect(failing).toHaveBeenCalledWith(r.keys[1]);
      expect(failing).toHaveBeenCalledWith(r.keys[0]);
    } finally {
      failing.mockRestore();
    }
    expect(await r.rowsLeft()).toEqual([]);
    // the files are still there, marked: the hourly sweep deletes them once the storage answers
    for (const key of r.keys) expect(await exists(key)).toBe(true);
    const marked = await t.database.db.select().from(storageTrash).where(inArray(storageTrash.key, r.keys));
    expect(marked).toHaveLength(2);
    const trash = t.app.deps.services.media.trash;
    expect((await trash.sweep(new Date())).deleted).toBe(0); // not an hour old yet
    const later = new Date(Date.now() + 2 * 60 * 60_000);
    expect(await trash.sweep(later)).toMatchObject({ deleted: expect.any(Number) });
    for (const key of r.keys) expect(await exists(key)).toBe(false);
    expect(await t.database.db.select().from(storageTrash).where(inArray(storageTrash.key, r.keys))).toEqual(
      [],
    );
  });
});
