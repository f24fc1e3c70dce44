import { announcing } from "../../lib/change-bus";
import { defineModule } from "../../lib/module";
import { registerWithUploads } from "../../plugins/uploads";
import { createLineTranslations, type LineTranslations } from "./line-translations";
import lessonRoutes from "./routes";
import type { LessonService } from "./service";
import { createLessonService, type LineFiles } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    lessons: LessonService;
    /** Where the module keeping files per line (the recordings) says how they go with the lines. */
    lineFiles: { use(files: LineFiles): void };
    /** A course's line translations, read for export and written back by line id. */
    lineTranslations: LineTranslations;
  }
}

/** Lessons, their lines (cues) and audio, and each learner's progress in them. */
export default defineModule({
  name: "lessons",
  needs: ["media", "mediaUrls", "settings"],
  provides: ["lessons", "lineFiles", "lineTranslations"],
  announces: ["courses", "progress"],
  routesRead: ["courses", "audit", "review", "certificates", "principals"],
  build: ({ db, changes }, { media, mediaUrls, settings }) => {
    // the files other modules keep per line (the learners' recordings) go with the lines: the
    // module keeping them says how (`lineFiles.use`) when it is built
    let kept: LineFiles | undefined;
    const lineFiles: LineFiles = {
      keysOf: async (lines, tx) => (kept ? kept.keysOf(lines, tx) : []),
      deleteFiles: async (keys) => kept?.deleteFiles(keys),
    };
    // lessons change course lists too (lesson counts, durations)
    const lessons = announcing(
      createLessonService({
        db,
        media,
        lineFiles,
        urls: mediaUrls,
        audioBaseUrl: () => settings.audioBaseUrl(),
      }),
      changes,
      {
        create: ["courses"],
        update: ["courses"],
        updateColumn: ["courses"],
        updateLinks: ["courses"],
        replaceCues: ["courses"],
        applyAlignment: ["courses"],
        delete: ["courses"],
        saveProgress: (userId) => [`progress:${userId}`],
      },
    );
    const use = (files: LineFiles) => {
      kept = files;
    };
    const lineTranslations = announcing(createLineTranslations(db), changes, { apply: ["courses"] });
    return { lessons, lineFiles: { use }, lineTranslations };
  },
  routes: (api) => registerWithUploads(api, lessonRoutes),
});
