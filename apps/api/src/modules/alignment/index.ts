import { defineModule } from "../../lib/module";
import { startAlignmentJob } from "./job";
import { type AlignmentJobRow, createAlignmentQueue, type NewAlignmentJob } from "./queue";
import alignmentRoutes from "./routes";

declare module "../../lib/module" {
  interface AppServices {
    alignment: {
      /**
       * Queues an alignment of the lesson, or a proposal of lines at its pauses, and starts running
       * it (409 while one is queued or running).
       */
      enqueue(job: NewAlignmentJob): Promise<AlignmentJobRow>;
      latest(lessonId: string): Promise<AlignmentJobRow | null>;
      /** Waits for this process's alignments (tests, shutdown). */
      settled(): Promise<unknown>;
    };
  }
}

/**
 * Alignment of a lesson's script to its audio (packages/aligner), and lines proposed at the pauses
 * of audio without a script, as jobs with progress: the lines they place go to the lessons module,
 * which writes them and announces the change.
 */
export default defineModule({
  name: "alignment",
  needs: ["lessons", "media"],
  provides: ["alignment"],
  routesRead: ["courses", "lessons"],
  build: ({ db, app, config, metrics }, { lessons, media }) => {
    const queue = createAlignmentQueue(db);
    // the bundled server (build.mjs) has the worker as dist/align-worker.js; from source, tsx runs it
    const bundled = !import.meta.url.endsWith(".ts");
    const job = startAlignmentJob({
      queue,
      lessons,
      media,
      synthesis: config.alignSynthesis,
      log: app.log,
      metrics,
      worker: bundled
        ? { entry: new URL("./align-worker.js", import.meta.url) }
        : { execArgv: ["--import", "tsx"] },
    });
    let running: Promise<unknown> = Promise.resolve();
    app.addHook("onClose", () => job.stop());
    return {
      alignment: {
        async enqueue(wanted) {
          const row = await queue.enqueue(wanted);
          running = job.runOnce();
          return row;
        },
        latest: (lessonId) => queue.latest(lessonId),
        settled: () => running,
      },
    };
  },
  routes: async (api) => {
    await api.register(alignmentRoutes);
  },
});
