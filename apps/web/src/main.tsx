import "antd/dist/reset.css";
import "./styles.css";
import "./site.css";
import { hydrate } from "@tanstack/react-query";
import { StrictMode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { AppRoot, redirectOnSessionLoss } from "./app/app";
import { Providers } from "./app/providers";
import { createAppRouter, preloadRoutes } from "./app/router";
import { loadSettings } from "./features/settings/api/settings-queries";
import { reloadOnce } from "./lib/chunk-reload";
import { initI18n, loadLanguage } from "./lib/i18n";
import { langFromPath } from "./lib/locale-path";
import { queryClient } from "./lib/query-client";
import { readServerRender } from "./lib/server-render";
import { currentUserId, onSessionEnd, onSessionStart, restoreSession, resumeOnline } from "./lib/session";
import { store } from "./lib/storage";

const lang = langFromPath(window.location.pathname);
initI18n(lang);

// A stale deploy's chunk is gone: reload once to get the new one (spec §8).
window.addEventListener("vite:preloadError", (event) => {
  if (reloadOnce()) event.preventDefault();
});

// A session starts (spec §7): the settings are kept with the user; downloads are checked against
// the plan and the progress made offline is sent.
onSessionStart((user) => {
  void loadSettings().then((setting) => {
    if (setting && currentUserId()) store("setting", setting);
  });
  void import("./features/downloads/api/offline/sync")
    .then((m) => m.onlineStart(user.id))
    .catch(() => undefined);
});
// downloads and queued progress belong to the account that leaves
onSessionEnd(() => import("./features/downloads/api/offline/downloads").then((m) => m.clearOfflineData()));

// Once per page load (not in an effect: StrictMode would run it twice and reuse the refresh token).
const sessionRestored = restoreSession();
// Back online: renew a session started offline, send the progress made meanwhile.
window.addEventListener("online", () => {
  void resumeOnline().then(() => {
    const userId = currentUserId();
    if (userId) void import("./features/downloads/api/offline/sync").then((m) => m.flushProgress(userId));
  });
});
// the public settings (contact address, whether sign-ups are open), for visitors too
void loadSettings();

async function start(root: HTMLElement) {
  // Public pages arrive rendered by the server, with the API data they used.
  const rendered = readServerRender(document);
  if (rendered) {
    hydrate(queryClient, rendered.queries);
    // The server renders for a visitor: once a signed-in session is back, what it sent is read
    // again for this learner (their locks, progress and pace), not kept until it goes stale.
    const served = new Set(rendered.queries.queries.map((q) => q.queryHash));
    void sessionRestored.then(() => {
      if (currentUserId())
        void queryClient.invalidateQueries({ predicate: (query) => served.has(query.queryHash) });
    });
  }
  await Promise.all([loadLanguage(lang), preloadRoutes(window.location.pathname)]);
  const router = createAppRouter();
  redirectOnSessionLoss(router);
  const app = (
    <StrictMode>
      <ReadyMark />
      <Providers>
        <AppRoot router={router} waitForSession={!rendered} />
      </Providers>
    </StrictMode>
  );
  // A not-found page is rendered anew: staff may see a course that visitors may not.
  // Hydrated as a transition: React yields to the browser every few milliseconds instead of
  // holding the main thread for the whole page (the markup is already on screen).
  if (rendered?.status === 200)
    startTransition(() => {
      hydrateRoot(root, app);
    });
  else createRoot(root).render(app);
  const notices = document.createElement("div");
  notices.className = "app-notices";
  document.body.append(notices);
  // the offline banner and the new-version prompt are not needed for the first paint
  void import("./components/app-notices").then(({ AppNotices }) =>
    createRoot(notices).render(<AppNotices />),
  );
}

/**
 * Marks the page once the app has rendered or hydrated it (`<html data-app-ready>`): before that,
 * a server-rendered page shows its buttons but they do not answer yet. Renders nothing, so the
 * server's markup (rendered without it) hydrates as it is. The end-to-end tests wait for it.
 */
function ReadyMark() {
  useEffect(() => {
    document.documentElement.dataset.appReady = "";
  }, []);
  return null;
}

/** The service worker (src/sw.ts): offline shell and lessons; a new version waits for the prompt. */
function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  // not needed for the first paint: the manifest link and the worker's registration come after
  void Promise.all([import("./lib/pwa"), import("virtual:pwa-register")]).then(([pwa, { registerSW }]) => {
    const { linkManifest, newVersionWaiting } = pwa;
    linkManifest(lang);
    const update = registerSW({
      immediate: true,
      onNeedRefresh: () => newVersionWaiting(() => update(true)),
    });
  });
}
registerServiceWorker();

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
void start(root);
