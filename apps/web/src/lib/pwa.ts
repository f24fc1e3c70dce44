import { type Lang, manifestPath } from "@parlons/contract";
import { useSyncExternalStore } from "react";

/**
 * The service worker's news for the page: a new version of the app is installed and waits
 * (`needRefresh`). main.tsx registers the worker (virtual:pwa-register) and feeds this store; the
 * update prompt reads it. Nothing here imports the worker's code, so the server renderer can
 * import the prompt.
 */
interface PwaState {
  needRefresh: boolean;
}

let state: PwaState = { needRefresh: false };
let apply: (() => Promise<void>) | null = null;
const listeners = new Set<() => void>();

function set(next: PwaState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** main.tsx: a new version waits; `update` makes it take over and reloads the page. */
export function newVersionWaiting(update: () => Promise<void>): void {
  apply = update;
  set({ needRefresh: true });
}

export function dismissNewVersion(): void {
  set({ needRefresh: false });
}

/**
 * The waiting version takes over, then the page reloads under it. The reload is ours: the worker
 * registration (vite-plugin-pwa) reloads only a page that a worker already controlled when it
 * loaded, so a tab opened at the first visit stayed on the old version with the prompt showing.
 */
export async function reloadToNewVersion(): Promise<void> {
  if (!apply) return window.location.reload();
  navigator.serviceWorker?.addEventListener("controllerchange", () => window.location.reload(), {
    once: true,
  });
  await apply();
}

const SERVER_STATE: PwaState = { needRefresh: false };

export function usePwaState(): PwaState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => SERVER_STATE,
  );
}

/** A page links its language's manifest (names and start page in that language). */
export function linkManifest(lang: Lang): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (link) link.setAttribute("href", manifestPath(lang));
}
