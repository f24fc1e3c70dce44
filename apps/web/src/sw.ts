/// <reference lib="webworker" />
/**
 * The service worker (built by vite-plugin-pwa, strategy injectManifest; see docs/decisions.md,
 * "Installable app and offline lessons"):
 * - the app shell (HTML, JS, CSS, texts, icons of the build) is precached and served from the
 *   cache; a new build waits until the page asks it to take over (the "new version" prompt);
 * - navigations go to the network (public pages arrive rendered by the server, with their
 *   status); when it fails, pages of the app get the precached shell, never /api;
 * - the course and lessons reads are network first, kept for when the network is gone;
 * - a signed audio URL is answered from the downloaded copy of its lesson when there is one,
 *   Range requests included (206 cut from the whole file), whatever its signature;
 * - a push message (a study or event reminder, Web Push) is shown as a notification; a click
 *   opens its page, in a tab of the app already open when there is one.
 */
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { createPartialResponse } from "workbox-range-requests";
import { registerRoute } from "workbox-routing";
import {
  audioCacheKey,
  audioLessonId,
  CACHE_NAMES,
  isAppNavigation,
  isOfflineRead,
} from "./features/downloads/api/offline/keys";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

// "/" is a server-rendered page (and a redirect to the saved language), not the shell's index.html
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: "", cleanURLs: false });
cleanupOutdatedCaches();
clientsClaim();

self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.mode === "navigate" && isAppNavigation(url.pathname),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (error) {
      const shell = await matchPrecache("/index.html");
      if (shell) return shell;
      throw error;
    }
  },
);

registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === "GET" && isOfflineRead(url.pathname),
  async ({ request, url }) => {
    const cache = await caches.open(CACHE_NAMES.data);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(url.pathname, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(url.pathname, { ignoreVary: true, ignoreSearch: true });
      if (kept) return kept;
      throw error;
    }
  },
);

registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === "GET" && audioLessonId(url.pathname) !== null,
  async ({ request, url }) => {
    const lessonId = audioLessonId(url.pathname) ?? "";
    const cache = await caches.open(CACHE_NAMES.audio);
    const kept = await cache.match(audioCacheKey(lessonId));
    if (!kept) return fetch(request);
    return request.headers.has("range") ? createPartialResponse(request, kept) : kept;
  },
);

/** What the server's reminders carry (the contract's PushMessage). */
interface Reminder {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/** Only a path of this site opens, whatever a message says. */
function sitePath(url: unknown): string {
  if (typeof url !== "string") return "/";
  const target = new URL(url, self.location.origin);
  return target.origin === self.location.origin ? `${target.pathname}${target.search}` : "/";
}

self.addEventListener("push", (event) => {
  let reminder: Partial<Reminder> = {};
  try {
    reminder = (event.data?.json() ?? {}) as Partial<Reminder>;
  } catch {
    reminder = { body: event.data?.text() ?? "" };
  }
  event.waitUntil(
    self.registration.showNotification(reminder.title ?? "Parlons", {
      body: reminder.body ?? "",
      tag: reminder.tag,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      lang: sitePath(reminder.url).match(/^\/(en|es)(\/|$)/)?.[1] ?? "fr",
      data: { url: sitePath(reminder.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = sitePath((event.notification.data as { url?: unknown } | null)?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        try {
          await (await open.focus()).navigate(path);
          return;
        } catch {
          // a tab this worker does not control cannot be navigated by it: a new one opens
        }
      }
      await self.clients.openWindow(path);
    })(),
  );
});
