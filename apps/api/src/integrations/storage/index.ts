// The storage registry: picks the driver from the configuration. The drivers import the
// interface from ./storage, never this file, so the registry and the drivers form no circle.
import type { MediaConfig } from "../../config";
import { createDiskStorage } from "./disk";
import { createS3Storage } from "./s3";
import { cachedStat, type Storage } from "./storage";

/** Stat answers are remembered this long (see cachedStat). */
const STAT_TTL_MS = 10_000;

export function createStorage(config: MediaConfig): Storage {
  if (config.driver === "s3") {
    if (!config.s3) throw new Error("STORAGE_DRIVER=s3 needs the S3_* settings");
    return cachedStat(createS3Storage({ ...config.s3, tempRoot: config.dir }), STAT_TTL_MS);
  }
  return cachedStat(createDiskStorage(config.dir), STAT_TTL_MS);
}
