import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";
import { actionForKey, isOwnedByControl, isTypingTarget, type PlayerAction } from "../lib/shortcuts";
import { stepSpeed } from "../lib/speed";

export interface ShortcutHandlers {
  toggle: () => void;
  seek: (to: number) => void;
  changeRate: (rate: number) => void;
  toggleMute: () => void;
  openHelp: () => void;
  /** Tells screen readers the new speed. */
  announceSpeed: (rate: number) => void;
}

/**
 * Keyboard shortcuts, document-wide while the player is on the page; keys typed in a field, a
 * dialog or a drawer, or owned by the focused control (a slider's arrows), are left alone.
 */
export function usePlayerShortcuts(
  audioRef: RefObject<HTMLAudioElement | null>,
  handlers: ShortcutHandlers,
  paused: boolean,
) {
  const live = useRef(handlers);
  useLayoutEffect(() => {
    live.current = handlers;
  });

  useEffect(() => {
    if (paused) return;
    const run = (action: PlayerAction, el: HTMLAudioElement) => {
      const h = live.current;
      switch (action.type) {
        case "toggle":
          return h.toggle();
        case "seekBy":
          return h.seek(el.currentTime + action.seconds);
        case "speed": {
          const next = stepSpeed(el.playbackRate, action.direction);
          h.changeRate(next);
          return h.announceSpeed(next);
        }
        case "mute":
          return h.toggleMute();
        case "seekPercent":
          if (Number.isFinite(el.duration)) h.seek((el.duration * action.percent) / 100);
          return;
        case "help":
          return h.openHelp();
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const target = event.target as HTMLElement | null;
      if (isTypingTarget(target)) return;
      if (target?.closest?.(".ant-modal, .ant-drawer")) return;
      const action = actionForKey(event);
      const el = audioRef.current;
      if (!action || !el || isOwnedByControl(target, action)) return;
      event.preventDefault();
      run(action, el);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [audioRef, paused]);
}
