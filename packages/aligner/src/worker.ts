/**
 * Worker-thread entry: one alignment (or one proposal of lines for audio without a script) per
 * message, so that a server's event loop never runs the CPU-bound part. Posts
 * { type: "progress", fraction }, then { type: "result", result } or { type: "error", code, message }.
 * Started by alignInWorker and proposeInWorker (run-in-worker.ts).
 */
import { parentPort } from "node:worker_threads";
import { type AlignOptions, alignAudio } from "./align.js";
import { proposeLines } from "./propose.js";

export interface AlignJob {
  kind?: "align";
  audio: Uint8Array;
  lines: string[];
  options: Omit<AlignOptions, "onProgress">;
}

export interface ProposeJob {
  kind: "propose";
  audio: Uint8Array;
  /** at most this many lines (a lesson's limit): more is refused with TOO_MANY_LINES */
  maxLines?: number;
}

parentPort?.on("message", async (job: AlignJob | ProposeJob) => {
  try {
    const onProgress = (fraction: number) => parentPort?.postMessage({ type: "progress", fraction });
    const result =
      job.kind === "propose"
        ? await proposeLines(job.audio, { onProgress, maxLines: job.maxLines })
        : await alignAudio(job.audio, job.lines, { ...job.options, onProgress });
    parentPort?.postMessage({ type: "result", result });
  } catch (err) {
    parentPort?.postMessage({
      type: "error",
      code: (err as { code?: string }).code ?? "ALIGN_FAILED",
      message: (err as Error).message,
    });
  }
});
