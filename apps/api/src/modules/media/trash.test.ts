import { writeFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import {
  courseWithLessons,
  multipart,
  tinyPng,
  uploadAudio,
  uploadCover,
} from "../../../test/helpers/learning";
import { media, storageTrash } from "../../db/schema";
import { SWEEP_AFTER_MS } from "./trash";

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const services = () => t.app.deps.services.media;
const exists = async (key: string) => (await services().storage.stat(key)) !== null;
const marks = async () => (await t.database.db.select().from(storageTrash)).map((r) => r.key).sort();
const anHourOn = () => new Date(Date.now() + SWEEP_AFTER_MS + 60_000);

/** Bytes written under `key` as a stopped process would have left them. */
async function leftFile(key: string) {
  const temp = path.join(await services().storage.tempDir(), `left-${Date.now()}`);
  await writeFile(temp, "bytes");
  await services().storage.putFile(key, temp);
}

describe("storage trash", () => {
  it("an upload leaves no mark; a deleted lesson's audio and a course cover go with their rows", async () => {
    const before = await marks();
    const audio = await uploadAudio(t, admin);
    const cover = await uploadCover(t, admin);
    expect(await marks()).toEqual(before);
    expect(await exists(audio.file_path)).toBe(true);

    const course = await courseWithLessons(t, admin);
    const res = await t.request({
      method: "DELETE",
      url: `/api/v1/courses/${course.course.id}?force=true`,
      token: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await marks()).toEqual(before);
    expect(await exists(cover)).toBe(true); // not this course's cover
  });

  it("sweeps what a stopped process left: a file no row uses goes, a file a row uses stays, a recent mark waits", async () => {
    const { db } = t.database;
    await db.delete(storageTrash);
    // a lesson's audio deleted in the database, the process stopped before the file went
    await leftFile("audio/left-behind.mp3");
    // an upload whose bytes were written, its row never
    await leftFile("images/never-recorded.png");
    // a mark whose row was written after all (a stop between the row and the unmark)
    const used = await uploadAudio(t, admin);
    await services().trash.mark(["audio/left-behind.mp3", "images/never-recorded.png", used.file_path]);
    // an upload in progress right now
    await leftFile("audio/in-progress.mp3");
    const now = new Date();
    const old = new Date(now.getTime() - SWEEP_AFTER_MS - 60_000);
    await db.update(storageTrash).set({ createdAt: old });
    await services().trash.mark(["audio/in-progress.mp3"]);

    expect(await services().trash.sweep(now)).toEqual({ deleted: 2, kept: 1 });
    expect(await exists("audio/left-behind.mp3")).toBe(false);
    expect(await exists("images/never-recorded.png")).toBe(false);
    expect(await exists(used.file_path)).toBe(true);
    expect(await db.select().from(media).where(eq(media.path, used.file_path))).toHaveLength(1);
    expect(await exists("audio/in-progress.mp3")).toBe(true);
    expect(await marks()).toEqual(["audio/in-progress.mp3"]);

    // an hour on, nothing uses it: it goes too; a second sweep finds nothing
    expect(await services().trash.sweep(anHourOn())).toEqual({ deleted: 1, kept: 0 });
    expect(await exists("audio/in-progress.mp3")).toBe(false);
    expect(await services().trash.sweep(anHourOn())).toEqual({ deleted: 0, kept: 0 });
  });

  it("a storage that refuses a delete keeps the mark for the next sweep", async () => {
    await leftFile("audio/refused.mp3");
    await services().trash.mark(["audio/refused.mp3"]);
    const failing = vi
      .spyOn(services().storage, "delete")
      .mockRejectedValue(new Error("storage unreachable"));
    try {
      expect(await services().trash.sweep(anHourOn())).toEqual({ deleted: 0, kept: 0 });
    } finally {
      failing.mockRestore();
    }
    expect(await marks()).toContain("audio/refused.mp3");
    expect(await services().trash.sweep(anHourOn())).toEqual({ deleted: 1, kept: 0 });
    expect(await exists("audio/refused.mp3")).toBe(false);
  });

  it("an upload whose row cannot be written takes its bytes with it", async () => {
    const written: string[] = [];
    const original = services().storage.putFile.bind(services().storage);
    const spy = vi.spyOn(services().storage, "putFile").mockImplementation(async (key, file) => {
      written.push(key);
      await original(key, file);
    });
    const failing = vi.spyOn(t.database.db, "transaction").mockRejectedValueOnce(new Error("database gone"));
    const before = await marks();
    try {
      const res = await t.request({
        method: "POST",
        url: "/api/v1/medias/file/upload",
        token: admin,
        ...multipart([
          { name: "type", value: "image" },
          { name: "file", value: tinyPng(), filename: "a.png", contentType: "image/png" },
        ]),
      });
      expect(res.statusCode).toBe(500);
    } finally {
      failing.mockRestore();
      spy.mockRestore();
    }
    expect(written).toHaveLength(1);
    expect(await exists(written[0] as string)).toBe(false);
    expect(await marks()).toEqual(before);
  });
});
