/**
 * Renders one session (session.ts) in a worker thread (session-worker.ts) and resolves with the
 * MP3; the calling thread stays free. The worker ends with the job.
 */
import { spawn } from "node:child_process";
import { runWorkerJob, type WorkerOptions } from "./run-in-worker.js";
import type { SessionJob, SessionResult } from "./session.js";

export type { SessionJob, SessionPiece, SessionResult, SpeechLanguage } from "./session.js";

export class SessionWorkerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Whether espeak-ng answers on the PATH (asked without blocking). */
export function probeSpeaker(command = "espeak-ng"): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(command, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
    });
    child.on("error", () => resolve(null));
    child.on("close", (code) => resolve(code === 0 && /eSpeak NG/i.test(out) ? command : null));
  });
}

export function renderSessionInWorker(job: SessionJob, worker: WorkerOptions = {}): Promise<SessionResult> {
  return runWorkerJob<SessionResult>(
    new URL("./session-worker.ts", import.meta.url),
    job,
    worker,
    (code, message) => new SessionWorkerError(code === "WORKER_STOPPED" ? "RENDER_FAILED" : code, message),
  );
}
