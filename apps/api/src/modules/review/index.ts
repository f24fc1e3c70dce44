import { defineModule } from "../../lib/module";
import { registerWithUploads } from "../../plugins/uploads";
import recordingRoutes from "./recording-routes";
import type { RecordingService } from "./recordings";
import { createRecordingService, recordingKeysInUse, recordingLineFiles } from "./recordings";
import reviewRoutes from "./routes";
import type { ReviewService } from "./service";
import { createReviewService } from "./service";
import { createWordCards, type WordCards } from "./word-cards";

declare module "../../lib/module" {
  interface AppServices {
    review: ReviewService;
    recordings: RecordingService;
    wordCards: WordCards;
  }
}

/** The learner's review deck (spaced repetition of lines) and the recordings they keep of them. */
export default defineModule({
  name: "review",
  needs: ["lessons", "courses", "media", "lineFiles", "storageUsers"],
  provides: ["review", "recordings", "wordCards"],
  routesRead: ["principals"],
  build: ({ db, clock }, { lessons, courses, media, lineFiles, storageUsers }) => {
    // the recordings are files in the media storage, going with their lines
    storageUsers.add(recordingKeysInUse);
    lineFiles.use(recordingLineFiles({ trash: media.trash }));
    const review = createReviewService({ db, lessons, courses, clock });
    const recordings = createRecordingService({
      db,
      storage: media.storage,
      trash: media.trash,
      lessons,
      mustOpen: review.mustOpen,
    });
    return { review, recordings, wordCards: createWordCards({ db, clock }) };
  },
  routes: (api) => registerWithUploads(api, reviewRoutes, recordingRoutes),
});
