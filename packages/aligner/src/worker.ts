/**
 * Worker-thread entry: one alignment per message, so that a server's event loop never runs the
 * CPU-bound part. Posts { type: "progress", fraction }, then { type: "result", result } or
 * { type: "error", code, message }. Started by alignInWorker (run-in-worker.ts).
 */
import { parentPort } from "node:worker_threads";
import { type AlignOptions, alignAudio } from "./align.js";

export interface AlignJob {
  audio: Uint8Array;
  lines: string[];
  options: Omit<AlignOptions, "onProgress">;
}

parentPort?.on("message", async (job: AlignJob) => {
  try {
    const result = await alignAudio(job.audio, job.lines, {
      ...job.options,
      onProgress: (fraction) => parentPort?.postMessage({ type: "progress", fraction }),
    });
    parentPort?.postMessage({ type: "result", result });
  } catch (err) {
    parentPort?.postMessage({
      type: "error",
      code: (err as { code?: string }).code ?? "ALIGN_FAILED",
      message: (err as Error).message,
    });
  }
});
