import { HANDS_FREE_GAP, type HandsFreeItem, type HandsFreeStep } from "@parlons/contract";
import { useCallback, useEffect, useRef, useState } from "react";
import { silenceUrl } from "../lib/silence";

/** Where the session is: the item, its step (a gap before every item but the first), playing or not. */
export interface RunnerState {
  index: number;
  step: number;
  playing: boolean;
  finished: boolean;
}

/** The browser's voice for a language (`fr` matches `fr-FR`), if it has one. */
export function voiceFor(language: string): SpeechSynthesisVoice | null {
  if (typeof speechSynthesis === "undefined") return null;
  return speechSynthesis.getVoices().find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === language) ?? null;
}

/**
 * Plays a hands-free session by itself: for each item its steps (the line's segment of the lesson
 * audio, a pause played as silent audio, the prompt spoken by the browser's voice for its language
 * or only shown where there is none), a gap between items. Pause and play stop and resume the
 * current step; `next` and `previous` jump to an item's start (Media Session's track buttons).
 */
export function useHandsFreeRunner(items: HandsFreeItem[]) {
  const lineRef = useRef<HTMLAudioElement>(null);
  const silenceRef = useRef<HTMLAudioElement>(null);
  const [state, setState] = useState<RunnerState>({ index: 0, step: 0, playing: false, finished: false });
  const live = useRef(state);
  live.current = state;
  const lineEnd = useRef(0);
  const stopTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  /** The steps of item `index`, with the gap before it. */
  const stepsOf = useCallback(
    (index: number): HandsFreeStep[] => [
      ...(index > 0 ? [{ type: "pause" as const, seconds: HANDS_FREE_GAP }] : []),
      ...(items[index]?.steps ?? []),
    ],
    [items],
  );

  const stopAll = useCallback(() => {
    clearTimeout(stopTimer.current);
    lineRef.current?.pause();
    silenceRef.current?.pause();
    if (typeof speechSynthesis !== "undefined") speechSynthesis.cancel();
  }, []);

  const advance = useCallback(() => {
    setState((s) => {
      if (!s.playing || s.finished) return s;
      if (s.step + 1 < stepsOf(s.index).length) return { ...s, step: s.step + 1 };
      if (s.index + 1 < items.length) return { ...s, index: s.index + 1, step: 0 };
      return { ...s, playing: false, finished: true };
    });
  }, [items.length, stepsOf]);

  // runs the current step whenever it changes (or playing resumes)
  useEffect(() => {
    const { index, step, playing, finished } = state;
    const item = items[index];
    if (!playing || finished || !item) return;
    const current = stepsOf(index)[step];
    let cancelled = false;
    const done = () => {
      if (!cancelled) advance();
    };
    if (current?.type === "pause") {
      const el = silenceRef.current;
      if (!el) return;
      const url = silenceUrl(current.seconds);
      el.src = url;
      el.onended = done;
      void el.play().catch(() => undefined);
      return () => {
        cancelled = true;
        el.onended = null;
        el.pause();
        URL.revokeObjectURL(url);
      };
    }
    if (current?.type === "prompt") {
      const voice = item.prompt ? voiceFor(item.prompt.language) : null;
      if (!voice || !item.prompt) {
        // no voice for that language: the prompt is shown, and the pause that follows is the time to read it
        done();
        return;
      }
      const utterance = new SpeechSynthesisUtterance(item.prompt.text);
      utterance.voice = voice;
      utterance.lang = voice.lang;
      utterance.onend = done;
      utterance.onerror = done;
      speechSynthesis.speak(utterance);
      return () => {
        cancelled = true;
        speechSynthesis.cancel();
      };
    }
    const el = lineRef.current;
    const src = item.lesson.audio_url;
    if (!el || !src) {
      done();
      return;
    }
    lineEnd.current = item.cue.end;
    const finish = () => {
      clearTimeout(stopTimer.current);
      el.ontimeupdate = null;
      el.pause();
      done();
    };
    const begin = () => {
      if (cancelled) return;
      el.currentTime = item.cue.start;
      void el.play().catch(() => undefined);
      // the end is watched at each timeupdate and by a timer set for it (timeupdate alone may be late)
      stopTimer.current = setTimeout(finish, (item.cue.end - item.cue.start) * 1000 + 50);
      el.ontimeupdate = () => {
        if (el.currentTime >= lineEnd.current) finish();
      };
    };
    // (as in lib/use-segment-player.ts, which this chunk does not import: the review page keeps it)
    if (el.getAttribute("src") !== src) {
      el.src = src;
      el.addEventListener("loadedmetadata", begin, { once: true });
      el.load();
    } else if (el.readyState >= 1) begin();
    else el.addEventListener("loadedmetadata", begin, { once: true });
    return () => {
      cancelled = true;
      clearTimeout(stopTimer.current);
      el.ontimeupdate = null;
      el.removeEventListener("loadedmetadata", begin);
      el.pause();
    };
  }, [state, items, stepsOf, advance]);

  useEffect(() => stopAll, [stopAll]);

  const jump = useCallback(
    (to: number) => {
      stopAll();
      setState((s) =>
        to >= items.length
          ? { ...s, playing: false, finished: true }
          : { index: Math.max(0, to), step: 0, playing: true, finished: false },
      );
    },
    [items.length, stopAll],
  );

  return {
    state,
    lineRef,
    silenceRef,
    play: useCallback(() => setState((s) => (s.finished || s.playing ? s : { ...s, playing: true })), []),
    pause: useCallback(() => {
      stopAll();
      setState((s) => ({ ...s, playing: false }));
    }, [stopAll]),
    next: useCallback(() => jump(live.current.index + 1), [jump]),
    previous: useCallback(() => jump(live.current.index), [jump]),
    restart: useCallback(() => {
      stopAll();
      setState({ index: 0, step: 0, playing: false, finished: false });
    }, [stopAll]),
  };
}
