import { defineModule } from "../../lib/module";
import { startAlignmentJob } from "./job";
import { type AlignmentJobRow, createAlignmentQueue } from "./queue";
import alignmentRoutes from "./routes";

declare module "../../lib/module" {
  interface AppServices {
    alignment: {
      /** Queues an alignment of the lesson and starts running it (409 while one is queued or running). */
      enqueue(job: {
        lessonId: string;
        apply: "merge" | "replace";
        lang: "fr" | "en" | "es";
        script: string[];
      }): Promise<AlignmentJobRow>;
      latest(lessonId: string): Promise<AlignmentJobRow | null>;
      /** Waits for this process's alignments (tests, shutdown). */
      settled(): Promise<unknown>;
    };
  }
}

/**
 * Alignment of a lesson's script to its audio (packages/aligner), as jobs with progress: the
 * lines it places go to the lessons module, which writes them and announces the change.
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
