import { trackListening } from "./listening";

export { currentHandoff, type Handoff, type PositionReason, setHandoff, useHandoff } from "./handoff";

/**
 * One `<audio>` element for the whole visit. The lesson page's player holds it while the
 * lesson is on screen; when the learner leaves the page while it plays, the element moves to
 * a hidden host under `<body>` and keeps playing, and the mini-player takes over its controls
 * through the hand-off the lesson page left here.
 */
let element: HTMLAudioElement | null = null;

export function sharedAudio(): HTMLAudioElement {
  if (!element) {
    element = document.createElement("audio");
    element.preload = "metadata";
    element.dataset.testid = "shared-audio";
    trackListening(element);
  }
  return element;
}

/** Pauses the lesson playing (the mini-player's), if any: another sound is about to play. */
export function pauseNowPlaying(): void {
  if (element && !element.paused) element.pause();
}

/** Moves the element out of a page that is going away, without stopping it. */
export function parkAudio(el: HTMLAudioElement): void {
  let host = document.getElementById("audio-host");
  if (!host) {
    host = document.createElement("div");
    host.id = "audio-host";
    host.hidden = true;
    document.body.appendChild(host);
  }
  host.appendChild(el);
}

export type MediaHandlers = Partial<Record<keyof HTMLMediaElementEventMap, () => void>>;

/** Attaches these handlers to the element; the returned function detaches them. */
export function listenTo(el: HTMLAudioElement, on: MediaHandlers): () => void {
  const entries = Object.entries(on) as [keyof HTMLMediaElementEventMap, () => void][];
  for (const [name, handler] of entries) el.addEventListener(name, handler);
  return () => {
    for (const [name, handler] of entries) el.removeEventListener(name, handler);
  };
}
