import { createHash, randomUUID } from "node:crypto";
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

/** The session's MP3 as stored: its storage key and size, its mode and what it holds. */
export interface SessionAudio {
  key: string;
  size: number;
  mode: HandsFreeAudioMode;
  items: number;
  /** its length in seconds (a constant bitrate: from its size) */
  seconds: number;
  /** the day it was made for (the learner's midnight) */
  day: Date;
}

/** The MP3's constant bitrate (packages/aligner/src/session.ts), in kbit/s. */
const SESSION_KBPS = 32;
/** Version of the rendering: a change to it makes every cached session stale. */
const RENDER_VERSION = 1;

/** Every recall made an echo: what a server with no synthesizer renders. */
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

/**
 * The hands-free session rendered as one MP3 on the server, for offline listening and the
 * podcast feed: each fetch plans the session again for the learner as they are now (the review
 * deck opens only what their plan opens: a plan that ends removes its premium items), and the
 * MP3 of that exact content is kept per learner and day (its key names the learner, the day and
 * a hash of the pieces), so that the same session is rendered once. Rendering (decoding the
 * lessons' audio, espeak-ng for the prompts, encoding) runs in a worker thread, one at a time per
 * process; where espeak-ng is missing (or SESSION_SPEECH=off) every item is an echo.
 */
export function createHandsFreeAudio(deps: {
  plan(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date): Promise<HandsFreePlan>;
  lessons: { findByIds(ids: string[]): Promise<{ id: string; audioPath: string | null }[]> };
  storage: Storage;
  /** espeak-ng's command, or null when there is none (asked once) */
  speaker: () => Promise<string | null>;
  render: (job: SessionJob) => Promise<SessionResult>;
}) {
  const { storage } = deps;
  /** renders under way, by key: a second request for the same session waits for the first */
  const running = new Map<string, Promise<number>>();
  /** one render at a time in this process: audio work is heavy, sessions are many */
  let queue: Promise<unknown> = Promise.resolve();
  /** each learner's day and the keys made for it, so that the previous day's files are dropped */
  const kept = new Map<string, { day: number; keys: Set<string> }>();

  async function remember(userId: string, day: Date, key: string) {
    const entry = kept.get(userId);
    if (entry?.day === day.getTime()) {
      entry.keys.add(key);
      return;
    }
    kept.set(userId, { day: day.getTime(), keys: new Set([key]) });
    for (const old of entry?.keys ?? []) await storage.delete(old).catch(() => undefined);
  }

  async function renderTo(key: string, job: SessionJob): Promise<number> {
    const result = await deps.render(job);
    const file = path.join(await storage.tempDir(), `${randomUUID()}.mp3`);
    await writeFile(file, result.mp3);
    await storage.putFile(key, file);
    return result.mp3.length;
  }

  return {
    /** The MP3 of the learner's session today, rendered now if it is not kept yet. */
    async audio(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date): Promise<SessionAudio> {
      const speaker = await deps.speaker();
      const mode: HandsFreeAudioMode = speaker ? "speech" : "echo_only";
      const plan = await deps.plan(reviewer, query, dayStart);
      const items = mode === "speech" ? plan.items : echoOnly(plan.items);
      const rows = await deps.lessons.findByIds([...new Set(items.map((i) => i.lesson.id))]);
      const audioPathOf = new Map(rows.flatMap((r) => (r.audioPath ? [[r.id, r.audioPath] as const] : [])));
      const { sources, pieces } = piecesOf(items, audioPathOf);
      if (pieces.length === 0) throw new AppError(404, "SESSION_EMPTY", "No line to practise today");
      const hash = createHash("sha256")
        .update(JSON.stringify({ v: RENDER_VERSION, sources, pieces }))
        .digest("base64url")
        .slice(0, 22);
      const userId = reviewer.principal.id;
      const day = dayStart.toISOString().slice(0, 16).replace(/[-:]/g, "");
      const key = `sessions/${userId}-${day}-${hash}.mp3`;
      const count = items.filter((i) => audioPathOf.has(i.lesson.id)).length;
      const done = (size: number): SessionAudio => ({
        key,
        size,
        mode,
        items: count,
        seconds: Math.round((size * 8) / (SESSION_KBPS * 1000)),
        day: dayStart,
      });
      const stored = await storage.stat(key);
      if (stored) return done(stored.size);
      let render = running.get(key);
      if (!render) {
        const job = async (): Promise<number> => {
          const bytes = await Promise.all(sources.map((s) => readAll(storage, s)));
          return renderTo(key, { sources: bytes, pieces, ...(speaker ? { speaker } : {}) });
        };
        render = queue.then(job, job);
        queue = render.catch(() => undefined);
        running.set(key, render);
        render.finally(() => running.delete(key)).catch(() => undefined);
      }
      const size = await render;
      await remember(userId, dayStart, key);
      return done(size);
    },
  };
}
export type HandsFreeAudio = ReturnType<typeof createHandsFreeAudio>;
