import { probeSpeaker, renderSessionInWorker } from "@parlons/aligner/run-session";
import { defineModule } from "../../lib/module";
import { createHandsFreeService, type HandsFreeService } from "./hands-free";
import { createHandsFreeAudio, type HandsFreeAudio } from "./hands-free-audio";
import { createHandsFreeFiles, sessionKeysInUse } from "./hands-free-files";
import practiceRoutes from "./routes";
import type { PracticeService } from "./service";
import { createPracticeService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    practice: PracticeService;
    handsFree: HandsFreeService;
    handsFreeAudio: HandsFreeAudio;
  }
}

/**
 * Exercises made from every line of the learner's deck (dictation, cloze, recall) and the
 * hands-free daily session (echo and recall), graded into the review deck, and that session
 * rendered as one MP3.
 */
export default defineModule({
  name: "practice",
  needs: ["review", "lessons", "courses", "media", "storageUsers"],
  provides: ["practice", "handsFree", "handsFreeAudio"],
  routesRead: ["principals"],
  build: ({ app, config, db }, { review, lessons, courses, media, storageUsers }) => {
    storageUsers.add(sessionKeysInUse);
    const handsFree = createHandsFreeService({ review, courses });
    // the bundled server (build.mjs) has the worker as dist/session-worker.js; from source, tsx runs it
    const bundled = !import.meta.url.endsWith(".ts");
    const worker = bundled
      ? { entry: new URL("./session-worker.js", import.meta.url) }
      : { execArgv: ["--import", "tsx"] };
    let speaker: Promise<string | null> | undefined;
    return {
      practice: createPracticeService({ review, lessons, courses }),
      handsFree,
      handsFreeAudio: createHandsFreeAudio({
        plan: handsFree.plan,
        lessons,
        openLessons: review.openOf,
        storage: media.storage,
        files: createHandsFreeFiles({ db, trash: media.trash }),
        // espeak-ng is asked once whether it is there; never required
        speaker: () => {
          speaker ??= config.sessionSpeech === "off" ? Promise.resolve(null) : probeSpeaker();
          return speaker;
        },
        render: (job) => renderSessionInWorker(job, worker),
        onBackgroundError: (err) => app.log.error({ err }, "hands-free session render failed"),
      }),
    };
  },
  routes: async (api) => {
    // a render in the background (the podcast feed's) finishes before the database closes
    api.addHook("onClose", () => api.deps.services.handsFreeAudio.settled());
    await api.register(practiceRoutes);
  },
});
