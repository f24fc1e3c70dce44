import { useSyncExternalStore } from "react";

// The lesson playing away from its page: a store of its own, so that the app's shell (which shows
// the mini-player) does not load the audio code with it.

export type PositionReason = "interval" | "pause" | "end" | "unload";

/** What the mini-player needs to go on with a lesson after its page has gone. */
export interface Handoff {
  lessonId: string;
  title: string;
  subtitle: string;
  artwork?: string | null;
  /** The lesson page, with the locale prefix. */
  path: string;
  /** Saves the listening position, as the lesson page does. */
  save: (seconds: number, reason: PositionReason) => void;
  /** The lesson was listened to the end: mark it done. */
  finish: () => void;
  /** A fresh signed audio URL when the current one has expired. */
  refresh: () => Promise<string | undefined>;
}

let handoff: Handoff | null = null;
const listeners = new Set<() => void>();

export function setHandoff(next: Handoff | null): void {
  handoff = next;
  for (const listener of listeners) listener();
}

export function currentHandoff(): Handoff | null {
  return handoff;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The lesson playing away from its page, if any. */
export function useHandoff(): Handoff | null {
  return useSyncExternalStore(subscribe, currentHandoff, () => null);
}
