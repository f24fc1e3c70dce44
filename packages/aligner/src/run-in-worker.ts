/**
 * Runs one alignment, or one proposal of lines for audio without a script, in a worker thread
 * (worker.ts) and resolves with its result; the calling thread stays free (a server keeps
 * answering). The worker ends with the job.
 */
import { Worker } from "node:worker_threads";
import type { AlignOptions, AlignResult } from "./align.js";
import type { ProposeResult } from "./propose.js";
import type { AlignJob, ProposeJob } from "./worker.js";

export type { AlignResult } from "./align.js";
export type { ProposeResult } from "./propose.js";

export class AlignWorkerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface WorkerOptions {
  /** the worker's entry: by default this package's worker.ts (a bundle passes its own file) */
  entry?: URL;
  /** e.g. ["--import", "tsx"] to run the TypeScript entry; by default the process's own */
  execArgv?: string[];
  onProgress?: (fraction: number) => void;
}

type Message<R> =
  | { type: "progress"; fraction: number }
  | { type: "result"; result: R }
  | { type: "error"; code: string; message: string };

/**
 * Posts `job` to a new worker thread started from `entry` (unless `worker.entry` says another),
 * reports its progress and resolves with its result; an error it posts, or its stopping early,
 * rejects with `fail(code, message)`. The worker ends with the job.
 */
export function runWorkerJob<R>(
  entry: URL,
  job: unknown,
  worker: WorkerOptions,
  fail: (code: string, message: string) => Error,
): Promise<R> {
  const thread = new Worker(worker.entry ?? entry, {
    ...(worker.execArgv ? { execArgv: worker.execArgv } : {}),
  });
  return new Promise<R>((resolve, reject) => {
    thread.on("message", (message: Message<R>) => {
      if (message.type === "progress") worker.onProgress?.(message.fraction);
      else if (message.type === "result") resolve(message.result);
      else reject(fail(message.code, message.message));
    });
    thread.on("error", reject);
    thread.on("exit", (code) => reject(fail("WORKER_STOPPED", `the worker stopped (${code})`)));
    thread.postMessage(job);
  }).finally(() => thread.terminate());
}

function inWorker<R>(job: AlignJob | ProposeJob, worker: WorkerOptions): Promise<R> {
  return runWorkerJob<R>(
    new URL("./worker.ts", import.meta.url),
    job,
    worker,
    (code, message) => new AlignWorkerError(code === "WORKER_STOPPED" ? "ALIGN_FAILED" : code, message),
  );
}

export function alignInWorker(
  audio: Uint8Array,
  lines: string[],
  options: Omit<AlignOptions, "onProgress">,
  worker: WorkerOptions = {},
): Promise<AlignResult> {
  return inWorker<AlignResult>({ audio, lines, options }, worker);
}

/** Lines proposed at the pauses of audio without a script (propose.ts), in a worker thread. */
export function proposeInWorker(
  audio: Uint8Array,
  worker: WorkerOptions = {},
  options: { maxLines?: number } = {},
): Promise<ProposeResult> {
  return inWorker<ProposeResult>({ kind: "propose", audio, ...options }, worker);
}
