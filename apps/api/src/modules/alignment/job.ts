import { buffer } from "node:stream/consumers";
import { alignInWorker, proposeInWorker, type WorkerOptions } from "@parlons/aligner/run-in-worker";
import { CUE_LIMITS } from "@parlons/contract";
import type { FastifyBaseLogger } from "fastify";
import { type Job, startJob } from "../../jobs/runner";
import type { Metrics } from "../../lib/metrics";
import type { LessonService } from "../lessons/service";
import type { MediaService } from "../media/service";
import type { AlignmentJobRow, AlignmentQueue } from "./queue";

export interface AlignmentJobDeps {
  queue: AlignmentQueue;
  lessons: Pick<LessonService, "findByIds" | "applyAlignment">;
  media: Pick<MediaService, "storage">;
  synthesis: "auto" | "off";
  log: FastifyBaseLogger;
  metrics?: Pick<Metrics, "jobItem" | "jobRun">;
  /** How the worker thread starts (the bundled server has its own entry). */
  worker: Pick<WorkerOptions, "entry" | "execArgv">;
}

/** Codes of the aligner's refusals that are the input's fault, as the API names them. */
const INPUT_CODES: Record<string, string> = {
  AUDIO_UNSUPPORTED: "AUDIO_UNREADABLE",
  AUDIO_CORRUPT: "AUDIO_UNREADABLE",
  AUDIO_EMPTY: "AUDIO_UNREADABLE",
  SCRIPT_EMPTY: "SCRIPT_EMPTY",
  SCRIPT_TOO_LONG: "SCRIPT_TOO_LONG",
  AUDIO_NO_SPEECH: "AUDIO_NO_SPEECH",
  LESSON_HAS_LINES: "LESSON_HAS_LINES",
  TOO_MANY_LINES: "TOO_MANY_LINES",
};

/**
 * Lines proposed at the pauses of audio without a script: text empty, placed by the signal alone
 * (nothing to doubt but their text); audio in which no speech is found is refused with a code.
 */
async function propose(audio: Uint8Array, worker: WorkerOptions) {
  // more stretches of speech than a lesson holds lines: refused with a code, never cut short
  const { lines } = await proposeInWorker(audio, worker, { maxLines: CUE_LIMITS.perLesson });
  if (lines.length === 0)
    throw Object.assign(new Error("No speech was found in the lesson's audio"), { code: "AUDIO_NO_SPEECH" });
  return lines.map((l) => ({ ...l, text: "", confidence: 1, doubtful: false }));
}

/**
 * Runs the queued alignments (the route starts a run after queuing one): claims the oldest, reads
 * the lesson's audio, aligns it in a worker thread (the event loop keeps answering), writes the
 * lines and the result, and goes on until none is waiting. One run at a time per process
 * (jobs/runner.ts), so a process aligns one lesson at a time and the others wait, queued.
 */
export function startAlignmentJob(deps: AlignmentJobDeps): Job<{ done: number; failed: number }> {
  const { queue, lessons, media, log } = deps;

  async function runOne(claimed: AlignmentJobRow): Promise<boolean> {
    let row = claimed;
    const started = performance.now();
    try {
      const [lesson] = await lessons.findByIds([row.lessonId]);
      if (!lesson?.audioPath) {
        await queue.fail(row, "LESSON_AUDIO_MISSING", "The lesson has no audio");
        return false;
      }
      const audio = new Uint8Array(await buffer(media.storage.read(lesson.audioPath)));
      // progress writes one after the other, never two at once (each moves the row it read)
      let writing = Promise.resolve();
      const worker: WorkerOptions = {
        ...deps.worker,
        onProgress: (fraction) => {
          writing = writing
            .then(async () => {
              row = (await queue.move(row, { type: "progress", fraction: Math.min(fraction, 0.95) })) ?? row;
            })
            .catch(() => undefined);
        },
      };
      // a proposal (audio without a script) gives lines with empty text, placed by the signal alone
      const result =
        row.kind === "propose"
          ? { mode: "signal" as const, cues: await propose(audio, worker) }
          : await alignInWorker(audio, row.script, { lang: row.lang, synthesis: deps.synthesis }, worker);
      await writing;
      const cues = await lessons.applyAlignment(lesson.courseId, lesson.id, result.cues, row.apply);
      const lines = result.cues.map((c, i) => ({
        id: cues[i]?.id ?? null,
        text: c.text,
        start: c.start,
        end: c.end,
        confidence: c.confidence,
        doubtful: c.doubtful,
      }));
      await queue.done(row, { mode: result.mode, elapsedMs: performance.now() - started, lines });
      return true;
    } catch (err) {
      const code = INPUT_CODES[(err as { code?: string }).code ?? ""];
      if (!code) log.error({ err, alignment: row.id }, "alignment failed");
      await queue.fail(
        row,
        code ?? "ALIGNMENT_FAILED",
        code ? (err as Error).message : "The alignment could not be computed",
      );
      return false;
    }
  }

  return startJob({
    name: "lesson-alignment",
    log,
    metrics: deps.metrics,
    // started by the route after it queues a job; no timer
    schedule: false,
    everyMs: 60_000,
    idle: { done: 0, failed: 0 },
    async run({ stopping }) {
      const result = { done: 0, failed: 0 };
      await queue.sweep(new Date());
      while (!stopping()) {
        const row = await queue.claim();
        if (!row) break;
        if (await runOne(row)) result.done++;
        else result.failed++;
      }
      return result;
    },
    report: (r) => ({
      ...(r.done || r.failed ? { message: "lessons aligned", fields: r } : {}),
      items: { done: r.done, failed: r.failed },
    }),
    failed: "lesson alignment run failed",
  });
}
