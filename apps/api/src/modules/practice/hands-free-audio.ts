import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { SessionJob, SessionPiece, SessionResult } from "@parlons/aligner/run-session";
import {
  HANDS_FREE_GAP,
  type HandsFreeAudioMode,
  type HandsFreeItem,
  type HandsFreePlan,
  type HandsFreeQuery,
  handsFreeSteps,
} from "@parlons/contract";
import type { Storage } from "../../integrations/storage/storage";
import { AppError } from "../../lib/errors";
import type { Reviewer } from "../review/service";
import type { HandsFreeFileRow, HandsFreeFiles } from "./hands-free-files";

/** The session's MP3 as stored: its storage key and size, its mode and what it holds. */
export interface SessionAudio {
  key: string;
  size: number;
  mode: HandsFreeAudioMode;
  items: number;
  /** its length in whole seconds */
  seconds: number;
  /** the day it was made for (the learner's midnight) */
  day: Date;
}

/** Every recall made an echo: what a server with no synthesizer (or one that failed) renders. */
function echoOnly(items: HandsFreeItem[]): HandsFreeItem[] {
  return items.map((item) =>
    item.kind === "echo"
      ? item
      : { ...item, kind: "echo", prompt: null, steps: handsFreeSteps("echo", item.cue.end - item.cue.start) },
  );
}

/** The pieces of the session's audio, in the plan's order, and the lessons (sources) they are cut from. */
function piecesOf(items: HandsFreeItem[], audioPathOf: Map<string, string>) {
  const sources: string[] = [];
  const pieces: SessionPiece[] = [];
  for (const [index, item] of items.entries()) {
    const key = audioPathOf.get(item.lesson.id);
    if (!key) continue;
    let source = sources.indexOf(key);
    if (source < 0) source = sources.push(key) - 1;
    if (index > 0) pieces.push({ type: "silence", seconds: HANDS_FREE_GAP });
    for (const step of item.steps) {
      if (step.type === "pause") pieces.push({ type: "silence", seconds: step.seconds });
      else if (step.type === "line")
        pieces.push({ type: "cut", source, start: item.cue.start, end: item.cue.end });
      else if (item.prompt)
        pieces.push({ type: "speech", text: item.prompt.text, language: item.prompt.language });
    }
  }
  return { sources, pieces };
}

async function readAll(storage: Storage, key: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

const presented = (row: HandsFreeFileRow): SessionAudio => ({
  key: row.storageKey,
  size: row.size,
  mode: row.mode as HandsFreeAudioMode,
  items: row.items,
  seconds: Math.round(row.seconds),
  day: row.dayStart,
});

/** The variant of a session its query makes: the file of one is not the file of another. */
const variantOf = (query: HandsFreeQuery) =>
  `${query.lang}.${[...query.kinds].sort().join("+")}.${query.limit}`;

/** espeak-ng failed on a prompt (the worker's code): the session is made again, every item an echo. */
const speechFailed = (err: unknown) => (err as { code?: unknown } | null)?.code === "SPEECH_FAILED";

/**
 * The hands-free session rendered as one MP3 on the server, for offline listening and the podcast
 * feed, frozen for the learner's day: the first fetch of a day plans the session (the review deck
 * opens only what their plan opens) and renders it; later fetches that day get the same file,
 * whatever was graded meanwhile, as long as every lesson it is cut from still opens for the
 * learner (a plan that ends makes it again without its premium lines). Rendering (decoding the
 * lessons' audio, espeak-ng for the prompts, encoding) runs in a worker thread, one at a time per
 * process; where espeak-ng is missing (or SESSION_SPEECH=off), or fails on a prompt, every item is
 * an echo. Files of past days are swept (`sweep`).
 */
export function createHandsFreeAudio(deps: {
  plan(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date): Promise<HandsFreePlan>;
  lessons: { findByIds(ids: string[]): Promise<{ id: string; audioPath: string | null }[]> };
  /** The lessons among `ids` that open for the reviewer now. */
  openLessons(reviewer: Reviewer, ids: string[]): Promise<Set<string>>;
  storage: Storage;
  files: HandsFreeFiles;
  /** espeak-ng's command, or null when there is none (asked once) */
  speaker: () => Promise<string | null>;
  render: (job: SessionJob) => Promise<SessionResult>;
  /** A render in the background failed (the feed's): logged, the next fetch tries again. */
  onBackgroundError?: (err: unknown) => void;
}) {
  const { storage, files } = deps;
  /** renders under way, by slot: a second request for the same session waits for the first */
  const running = new Map<string, Promise<HandsFreeFileRow>>();
  /** one render at a time in this process: audio work is heavy, sessions are many */
  let queue: Promise<unknown> = Promise.resolve();

  /** The MP3 of these items in storage under `key`; a prompt espeak-ng cannot read makes it echo only. */
  async function renderTo(key: string, items: HandsFreeItem[], speaker: string | null) {
    const rows = await deps.lessons.findByIds([...new Set(items.map((i) => i.lesson.id))]);
    const audioPathOf = new Map(rows.flatMap((r) => (r.audioPath ? [[r.id, r.audioPath] as const] : [])));
    const kept = items.filter((i) => audioPathOf.has(i.lesson.id));
    if (kept.length === 0) return null;
    const run = async (mode: HandsFreeAudioMode) => {
      const { sources, pieces } = piecesOf(mode === "speech" ? kept : echoOnly(kept), audioPathOf);
      const bytes = await Promise.all(sources.map((s) => readAll(storage, s)));
      return deps.render({ sources: bytes, pieces, ...(mode === "speech" && speaker ? { speaker } : {}) });
    };
    let mode: HandsFreeAudioMode = speaker ? "speech" : "echo_only";
    let result: SessionResult;
    try {
      result = await run(mode);
    } catch (err) {
      if (mode !== "speech" || !speechFailed(err)) throw err;
      mode = "echo_only";
      result = await run(mode);
    }
    const file = path.join(await storage.tempDir(), `${randomUUID()}.mp3`);
    await writeFile(file, result.mp3);
    await storage.putFile(key, file);
    const lessonIds = [...new Set(kept.map((i) => i.lesson.id))];
    return { size: result.mp3.length, seconds: result.seconds, mode, items: kept.length, lessonIds };
  }

  /** Plans the session now and renders it as the slot's file (replacing `stale` when given). */
  async function make(
    reviewer: Reviewer,
    query: HandsFreeQuery,
    dayStart: Date,
    stale: HandsFreeFileRow | undefined,
  ): Promise<HandsFreeFileRow> {
    const speaker = await deps.speaker();
    const plan = await deps.plan(reviewer, query, dayStart);
    const userId = reviewer.principal.id;
    const day = dayStart.toISOString().slice(0, 16).replace(/[-:]/g, "");
    const key = `sessions/${userId}-${day}-${randomUUID()}.mp3`;
    await files.reserve(key);
    let made: Awaited<ReturnType<typeof renderTo>> = null;
    try {
      made = plan.items.length > 0 ? await renderTo(key, plan.items, speaker) : null;
    } finally {
      if (!made) await files.release(key);
    }
    if (!made) {
      if (stale) await files.drop(stale);
      throw new AppError(404, "SESSION_EMPTY", "No line to practise today");
    }
    return files.freeze(
      { userId, dayStart, variant: variantOf(query), storageKey: key, createdAt: new Date(), ...made },
      stale?.storageKey ?? null,
    );
  }

  /** The slot's file as it stands: kept while every lesson it is cut from still opens. */
  async function frozen(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date) {
    const row = await files.find({ userId: reviewer.principal.id, dayStart, variant: variantOf(query) });
    if (!row) return { row: undefined, fresh: false };
    const open = await deps.openLessons(reviewer, row.lessonIds);
    const fresh = row.lessonIds.every((id) => open.has(id)) && (await storage.stat(row.storageKey)) !== null;
    return { row, fresh };
  }

  /** The render of the slot, started now unless one is under way (one at a time per process). */
  function rendering(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date, stale?: HandsFreeFileRow) {
    const slot = `${reviewer.principal.id}|${dayStart.getTime()}|${variantOf(query)}`;
    let render = running.get(slot);
    if (!render) {
      const job = () => make(reviewer, query, dayStart, stale);
      render = queue.then(job, job);
      queue = render.catch(() => undefined);
      running.set(slot, render);
      render.finally(() => running.delete(slot)).catch(() => undefined);
    }
    return render;
  }

  return {
    /** The MP3 of the learner's session today: the day's file, rendered now if there is none yet. */
    async audio(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date): Promise<SessionAudio> {
      const { row, fresh } = await frozen(reviewer, query, dayStart);
      if (row && fresh) return presented(row);
      return presented(await rendering(reviewer, query, dayStart, row));
    },

    /**
     * The day's file when it is made, else null, its render started in the background (the
     * podcast feed never waits for one: the episode appears once it is ready).
     */
    async ready(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date): Promise<SessionAudio | null> {
      const { row, fresh } = await frozen(reviewer, query, dayStart);
      if (row && fresh) return presented(row);
      rendering(reviewer, query, dayStart, row).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === "SESSION_EMPTY")) deps.onBackgroundError?.(err);
      });
      return null;
    },

    /** Waits for the renders under way (tests; a server closing). */
    async settled(): Promise<void> {
      await Promise.allSettled([...running.values()]);
    },

    /** Deletes the files of past days (the sweep job, at start and every hour); how many went. */
    sweep: (now: Date) => files.sweep(now),
  };
}
export type HandsFreeAudio = ReturnType<typeof createHandsFreeAudio>;
