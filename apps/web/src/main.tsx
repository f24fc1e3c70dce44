import "antd/dist/reset.css";
import "./styles.css";
import { hydrate } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { AppRoot, redirectOnSessionLoss } from "./app/app";
import { Providers } from "./app/providers";
import { createAppRouter, preloadRoutes } from "./app/router";
import { reloadOnce } from "./lib/chunk-reload";
import { initI18n } from "./lib/i18n";
import { queryClient } from "./lib/query-client";
import { readServerRender } from "./lib/server-render";
import { restoreSession } from "./lib/session";
import { loadSettings } from "./lib/settings-api";

initI18n(window.location.pathname);

// A stale deploy's chunk is gone: reload once to get the new one (spec §8).
window.addEventListener("vite:preloadError", (event) => {
  if (reloadOnce()) event.preventDefault();
});

// Once per page load (not in an effect: StrictMode would run it twice and reuse the refresh token).
void restoreSession();
// the public settings (contact address, whether sign-ups are open), for visitors too
void loadSettings();

async function start(root: HTMLElement) {
  // Public pages arrive rendered by the server, with the API data they used.
  const rendered = readServerRender(document);
  if (rendered) hydrate(queryClient, rendered.queries);
  await preloadRoutes(window.location.pathname);
  const router = createAppRouter();
  redirectOnSessionLoss(router);
  const app = (
    <StrictMode>
      <Providers>
        <AppRoot router={router} waitForSession={!rendered} />
      </Providers>
    </StrictMode>
  );
  // A not-found page is rendered anew: staff may see a course that visitors may not.
  if (rendered?.status === 200) hydrateRoot(root, app);
  else createRoot(root).render(app);
}

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
void start(root);
