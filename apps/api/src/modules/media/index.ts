import { createStorage } from "../../integrations/storage";
import { defineModule } from "../../lib/module";
import { registerWithUploads } from "../../plugins/uploads";
import mediaRoutes from "./routes";
import type { MediaService } from "./service";
import { createMediaService } from "./service";
import type { MediaUrlSigner } from "./signing";
import { createMediaUrlSigner } from "./signing";
import type { KeysInUse } from "./trash";

declare module "../../lib/module" {
  interface AppServices {
    media: MediaService;
    mediaUrls: MediaUrlSigner;
    /** Where another module that keeps files in the media storage says which keys its rows use. */
    storageUsers: { add(check: KeysInUse): void };
  }
}

/** Uploaded files (audio, images) in the media storage, and the signed URLs that serve them. */
export default defineModule({
  name: "media",
  needs: [],
  provides: ["media", "mediaUrls", "storageUsers"],
  build: ({ db, config }) => {
    // the other modules that keep files in this storage say which keys their rows still use
    const others: KeysInUse[] = [];
    const alsoInUse: KeysInUse = async (db, keys) =>
      (await Promise.all(others.map((check) => check(db, keys)))).flat();
    return {
      media: createMediaService({ db, storage: createStorage(config.media), alsoInUse: [alsoInUse] }),
      mediaUrls: createMediaUrlSigner({ secret: config.jwtSecret, ttlSeconds: config.media.urlTtl }),
      storageUsers: { add: (check: KeysInUse) => void others.push(check) },
    };
  },
  routes: (api) => registerWithUploads(api, mediaRoutes),
});
