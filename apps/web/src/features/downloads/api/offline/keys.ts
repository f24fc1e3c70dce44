/**
 * Names shared by the service worker (src/sw.ts) and the pages: caches, the stable key of a
 * downloaded lesson's audio and which requests the worker answers when the network is gone.
 * Pure functions: the worker and the unit tests import them as they are.
 */

/** Bump a version when the shape of what a cache holds changes (the worker drops the others). */
export const CACHE_NAMES = {
  /** API reads a lesson page needs (course, lessons with transcript): kept at each visit or download. */
  data: "parlons-data-v1",
  /** Downloaded lessons' audio, one full response per lesson under `audioCacheKey`. */
  audio: "parlons-audio-v1",
} as const;

const AUDIO_PATH = /^\/api\/v1\/media\/audio\/([0-9a-f-]{36})$/i;

/**
 * The cache key of a lesson's downloaded audio: the lesson id, not the signed URL, whose
 * signature and expiry change every few minutes.
 */
export function audioCacheKey(lessonId: string): string {
  return `/offline/audio/${lessonId.toLowerCase()}`;
}

/** The lesson id of a signed audio URL's path, or null. */
export function audioLessonId(pathname: string): string | null {
  return AUDIO_PATH.exec(pathname)?.[1]?.toLowerCase() ?? null;
}

const DATA_READS = [
  /^\/api\/v1\/courses\/single\/[^/]+$/,
  /^\/api\/v1\/courses\/[0-9a-f-]{36}\/lessons$/i,
  /^\/api\/v1\/practice\/session$/,
  /^\/api\/v1\/practice\/hands-free$/,
  // the review deck: a session of downloaded lessons' lines opens offline
  /^\/api\/v1\/review\/due$/,
];

/**
 * API reads the worker keeps (network first) so that a visited or downloaded lesson opens offline,
 * and the last practice and hands-free sessions read, whose lines of downloaded lessons then play offline.
 */
export function isOfflineRead(pathname: string): boolean {
  return DATA_READS.some((re) => re.test(pathname));
}

/**
 * Navigations the worker may answer with the app shell when the network fails: pages of the
 * app, never the API, its documentation, or the files the server makes (robots, sitemap).
 */
export function isAppNavigation(pathname: string): boolean {
  if (pathname === "/api" || pathname.startsWith("/api/")) return false;
  if (pathname === "/robots.txt" || pathname === "/sitemap.xml") return false;
  // a file (sw.js, manifest, icons, assets) is never a page
  return !/\.[a-z0-9]+$/i.test(pathname);
}

/** The lessons read of a course, as the pages ask for it (and a download keeps it). */
export function lessonsReadPath(courseId: string): string {
  return `/api/v1/courses/${courseId}/lessons`;
}

/** The course read, as the pages ask for it. */
export function courseReadPath(ref: string): string {
  return `/api/v1/courses/single/${encodeURIComponent(ref)}`;
}
