import { renderSessionInWorker } from "@parlons/aligner/run-session";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import {
  download,
  FREE_LINES,
  type HandsFreeFixture,
  handsFreeCourse,
  inReview,
  learner,
  TONES,
} from "../../../test/helpers/hands-free";
import { runsOf } from "../../../test/helpers/session-audio";
import { handsFreeFiles } from "../../db/schema";
import { startHandsFreeSweep } from "../../jobs/hands-free-sweep";
import { createHandsFreeAudio } from "./hands-free-audio";
import { createHandsFreeFiles } from "./hands-free-files";

const DAY = 86_400_000;

describe("the day's hands-free MP3: kept, swept, and echoed when speech fails", () => {
  let t: TestContext;
  let fx: HandsFreeFixture;
  beforeAll(async () => {
    t = await buildTestApp();
    fx = await handsFreeCourse(t);
    // a loaded machine takes its time to build the app and upload the lesson's audio
  }, 180_000);
  afterAll(() => t.close());

  const rowsOf = (userId: string) =>
    t.database.db.select().from(handsFreeFiles).where(eq(handsFreeFiles.userId, userId));
  const stored = (key: string) => t.app.deps.services.media.storage.stat(key);

  it("sweeps the files of past days at the sweep job's run (what a new process does at start), never today's", async () => {
    const user = await learner(t, fx);
    expect((await download(t, user.token)).statusCode).toBe(200);
    const [row] = await rowsOf(user.id);
    if (!row) throw new Error("no file row");
    expect(await stored(row.storageKey)).not.toBeNull();

    // a job started afresh, as a server starting again would: it knows the files from their rows
    const sweep = () =>
      startHandsFreeSweep({
        db: t.database.db,
        sessions: t.app.deps.services.handsFreeAudio,
        log: t.app.log,
        schedule: false,
      });
    expect(await sweep().runOnce(new Date())).toBe(0);
    expect(await stored(row.storageKey)).not.toBeNull();

    expect(await sweep().runOnce(new Date(Date.now() + 3 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await stored(row.storageKey)).toBeNull();
    expect(await rowsOf(user.id)).toEqual([]);
    // made again when asked again the same day
    const again = await download(t, user.token);
    expect(again.statusCode).toBe(200);
    const [remade] = await rowsOf(user.id);
    expect(remade?.storageKey).not.toBe(row.storageKey);
  });

  it("renders every item as an echo when espeak-ng fails at run time, and says so", async () => {
    const user = await learner(t, fx);
    await inReview(t, user.id, user.token);
    const { handsFree, lessons, review, media } = t.app.deps.services;
    const audio = createHandsFreeAudio({
      plan: handsFree.plan,
      lessons,
      openLessons: review.openOf,
      storage: media.storage,
      files: createHandsFreeFiles({ db: t.database.db, trash: media.trash }),
      // a synthesizer that was there at start and fails now (removed, broken)
      speaker: async () => "/nonexistent/espeak-ng",
      render: (job) => renderSessionInWorker(job, { execArgv: ["--import", "tsx"] }),
    });
    const principal = await t.app.deps.services.users.loadPrincipal(user.id);
    if (!principal) throw new Error("no principal");
    const reviewer = { principal, access: await t.app.deps.services.principals.accessOf(principal) };
    const query = { limit: 20, lang: "en" as const, kinds: ["recall" as const] };
    const plan = await handsFree.plan(reviewer, query, new Date(Date.now() - 60_000));
    expect(plan.items.filter((i) => i.kind === "recall")).toHaveLength(2);

    const session = await audio.audio(reviewer, query, new Date(Date.now() - 60_000));
    expect(session.mode).toBe("echo_only");
    expect(session.items).toBe(FREE_LINES.length);
    const chunks: Buffer[] = [];
    for await (const chunk of media.storage.read(session.key)) chunks.push(chunk as Buffer);
    const runs = await runsOf(new Uint8Array(Buffer.concat(chunks)), TONES);
    // each line heard twice (an echo), no speech
    expect(runs.filter((r) => r.type === "speech")).toEqual([]);
    for (const line of FREE_LINES)
      expect(runs.filter((r) => r.type === "tone" && r.hz === line.hz)).toHaveLength(2);
  });

  it("is erased with the account: its row and its file", async () => {
    const user = await learner(t, fx);
    expect((await download(t, user.token)).statusCode).toBe(200);
    const [row] = await rowsOf(user.id);
    if (!row) throw new Error("no file row");
    const archive = await t.app.deps.services.privacy.archive(user.id);
    expect(JSON.stringify(archive)).toContain(row.variant);
    await t.app.deps.services.privacy.eraseAccount(user.id, PASSWORD);
    expect(await rowsOf(user.id)).toEqual([]);
    expect(await stored(row.storageKey)).toBeNull();
  });
});
