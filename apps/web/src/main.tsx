import "antd/dist/reset.css";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppRoot } from "./app/app";
import { Providers } from "./app/providers";
import { reloadOnce } from "./lib/chunk-reload";
import { initI18n } from "./lib/i18n";
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

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <Providers>
      <AppRoot />
    </Providers>
  </StrictMode>,
);
