/**
 * Worker-thread entry: renders one session (session.ts) per message, so that a server's event
 * loop never decodes or encodes audio. Posts { type: "progress", fraction }, then
 * { type: "result", result } (the MP3's bytes transferred) or { type: "error", code, message }.
 * Started by renderSessionInWorker (run-session.ts).
 */
import { parentPort } from "node:worker_threads";
import { renderSession, type SessionJob } from "./session.js";

parentPort?.on("message", async (job: SessionJob) => {
  try {
    const result = await renderSession(job, (fraction) =>
      parentPort?.postMessage({ type: "progress", fraction }),
    );
    parentPort?.postMessage({ type: "result", result }, [result.mp3.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort?.postMessage({
      type: "error",
      code: (err as { code?: string }).code ?? "RENDER_FAILED",
      message: (err as Error).message,
    });
  }
});
