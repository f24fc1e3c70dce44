import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { type AbLoop, isLoopActive, loopJump, NO_LOOP, nextLoopState } from "../lib/ab-loop";
import { repeatPauseAfter, type TranscriptCue } from "../lib/cues";
import {
  currentHandoff,
  type Handoff,
  listenTo,
  type PositionReason,
  parkAudio,
  setHandoff,
  sharedAudio,
} from "../lib/now-playing";
import { clampSpeed, savedSpeed, saveSpeed } from "../lib/speed";
import { clampTime, isNearEnd } from "../lib/time";

export type { PositionReason };

export interface EngineOptions {
  /** The lesson: coming back to the lesson that plays in the mini-player takes it over as it is. */
  lessonId: string;
  src: string;
  cues: readonly TranscriptCue[];
  knownDuration?: number | null;
  /** Where to start (the saved resume point). */
  startAt?: number;
  onPosition?: (seconds: number, reason: PositionReason) => void;
  onFirstPlay?: () => void;
  onNearEnd?: () => void;
  /** The signed URL expired or failed: the page fetches a new one. */
  onSourceError?: () => void;
  /** Leaving the page while the audio plays: what the mini-player needs to go on. */
  handoff?: () => Handoff;
}

const SAVE_EVERY_MS = 10_000;

/**
 * The player's engine: drives the visit's one `<audio>` element (placed in `slotRef` while
 * the page is on screen) and everything that happens in time (the A–B loop, "repeat after
 * me" pauses, near-end and resume position reports). The components only read its state and
 * call its actions. Leaving the page while it plays hands the element to the mini-player.
 */
export function useAudioEngine(options: EngineOptions) {
  const { lessonId, src, startAt = 0, knownDuration } = options;
  const [audio] = useState(sharedAudio);
  const audioRef = useRef<HTMLAudioElement | null>(audio);
  const slotRef = useRef<HTMLDivElement>(null);
  // the same lesson still playing in the mini-player: take it over where it is
  // (only once it has really started: a page mounted twice must not lose its resume point)
  const [adopted] = useState(
    () =>
      audio.dataset.lesson === lessonId && audio.readyState > 0 && (audio.currentTime > 0 || !audio.paused),
  );
  const [playing, setPlaying] = useState(() => adopted && !audio.paused);
  const [time, setTime] = useState(() => (adopted ? audio.currentTime : startAt));
  const [duration, setDuration] = useState(() =>
    adopted && Number.isFinite(audio.duration) ? audio.duration : (knownDuration ?? 0),
  );
  const [rate, setRate] = useState(() => (adopted ? audio.playbackRate : savedSpeed()));
  const [muted, setMuted] = useState(() => adopted && audio.muted);
  const [loop, setLoop] = useState<AbLoop>(NO_LOOP);
  const [repeat, setRepeat] = useState(false);
  const [repeatWait, setRepeatWait] = useState(false);

  // latest values for event handlers and the animation loop
  const live = useRef({ options, loop, repeat });
  useLayoutEffect(() => {
    live.current = { options, loop, repeat };
  });
  const rateRef = useRef(rate);
  rateRef.current = rate;
  const prevTime = useRef(adopted ? audio.currentTime : startAt);
  const repeatTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pausingForRepeat = useRef(false);
  /** A pause that is not the learner's (switching lessons): no position report. */
  const silentPause = useRef(false);
  const nearEndSent = useRef(false);
  const playedOnce = useRef(adopted);
  /** Position to restore once metadata loads (start, or after a new signed URL). */
  const pendingSeek = useRef<number | null>(!adopted && startAt > 0 ? startAt : null);
  const lastSaved = useRef(adopted ? audio.currentTime : startAt);

  const report = useCallback((reason: PositionReason) => {
    const el = audioRef.current;
    if (!el) return;
    const at = el.currentTime;
    if (reason !== "end" && Math.abs(at - lastSaved.current) < 0.5) return;
    lastSaved.current = at;
    live.current.options.onPosition?.(at, reason);
  }, []);

  const nearEnd = useCallback(() => {
    if (nearEndSent.current) return;
    nearEndSent.current = true;
    live.current.options.onNearEnd?.();
  }, []);

  const cancelRepeatWait = useCallback(() => {
    clearTimeout(repeatTimer.current);
    repeatTimer.current = undefined;
    setRepeatWait(false);
  }, []);

  const seek = useCallback(
    (to: number) => {
      const el = audioRef.current;
      if (!el) return;
      cancelRepeatWait();
      const target = clampTime(to, el.duration);
      if (el.readyState === 0) pendingSeek.current = target;
      else el.currentTime = target;
      prevTime.current = target;
      setTime(target);
    },
    [cancelRepeatWait],
  );

  const toggle = useCallback(() => {
    const el = audioRef.current;
    if (!el) return;
    cancelRepeatWait();
    if (el.paused) void el.play().catch(() => undefined);
    else el.pause();
  }, [cancelRepeatWait]);

  const changeRate = useCallback((next: number) => {
    const el = audioRef.current;
    const value = clampSpeed(next);
    if (el) {
      el.preservesPitch = true;
      el.playbackRate = value;
    }
    saveSpeed(value);
    setRate(value);
  }, []);

  const toggleMute = useCallback(() => {
    const el = audioRef.current;
    if (!el) return;
    el.muted = !el.muted;
    setMuted(el.muted);
  }, []);

  const markLoop = useCallback(() => {
    const el = audioRef.current;
    if (el) setLoop((current) => nextLoopState(current, el.currentTime));
  }, []);

  const toggleRepeat = useCallback(() => {
    cancelRepeatWait();
    setRepeat((r) => !r);
  }, [cancelRepeatWait]);

  // The element joins the page; when the page goes, it parks under <body>, still playing if it
  // was (the mini-player takes over), else paused.
  useLayoutEffect(() => {
    const previous = currentHandoff();
    if (previous && !adopted) previous.save(audio.currentTime, "pause");
    setHandoff(null);
    slotRef.current?.appendChild(audio);
    return () => {
      const give = live.current.options.handoff;
      if (!audio.paused && give) setHandoff(give());
      else audio.pause();
      parkAudio(audio);
    };
  }, [audio, adopted]);

  // a new lesson resets the per-lesson state; a new src (signed URL refresh) keeps the position
  const firstSrc = useRef(true);
  useEffect(() => {
    const first = firstSrc.current;
    firstSrc.current = false;
    if (first && adopted) return; // the mini-player's source plays on
    if (first) {
      nearEndSent.current = false;
      setLoop(NO_LOOP);
      // another lesson was playing in the mini-player: its position is saved already
      if (!audio.paused) {
        silentPause.current = true;
        audio.pause();
      }
    } else if (audio.currentTime > 0) {
      pendingSeek.current = audio.currentTime;
    }
    cancelRepeatWait();
    audio.dataset.lesson = lessonId;
    audio.src = src;
  }, [audio, adopted, src, lessonId, cancelRepeatWait]);

  // the animation loop while playing: time display, A–B loop, repeat pauses, near end
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      const el = audioRef.current;
      if (el && !el.paused) {
        const now = el.currentTime;
        const { loop: currentLoop, repeat: repeating, options: current } = live.current;
        const jump = loopJump(currentLoop, now);
        if (jump !== null) {
          el.currentTime = jump;
          prevTime.current = jump;
        } else {
          const pause =
            repeating && !isLoopActive(currentLoop)
              ? repeatPauseAfter(current.cues, prevTime.current, now, el.duration)
              : null;
          if (pause) {
            pausingForRepeat.current = true;
            el.pause();
            setRepeatWait(true);
            repeatTimer.current = setTimeout(() => {
              repeatTimer.current = undefined;
              setRepeatWait(false);
              void audioRef.current?.play().catch(() => undefined);
            }, pause.pauseMs / el.playbackRate);
          }
          prevTime.current = now;
        }
        setTime((old) => (Math.abs(old - el.currentTime) >= 0.05 ? el.currentTime : old));
        if (isNearEnd(el.currentTime, el.duration)) nearEnd();
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    const saver = setInterval(() => report("interval"), SAVE_EVERY_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearInterval(saver);
    };
  }, [playing, report, nearEnd]);

  // save on tab hide / close and when leaving the lesson (unless it plays on in the mini-player)
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") report("unload");
    };
    const onPageHide = () => report("unload");
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
      if (currentHandoff()?.lessonId !== live.current.options.lessonId) report("unload");
    };
  }, [report]);

  useEffect(() => () => clearTimeout(repeatTimer.current), []);

  // the element's events, attached for as long as the page holds it
  useEffect(() => {
    return listenTo(audio, {
      loadedmetadata: () => {
        audio.preservesPitch = true;
        audio.playbackRate = rateRef.current;
        setDuration(audio.duration);
        if (pendingSeek.current !== null) {
          audio.currentTime = clampTime(pendingSeek.current, audio.duration);
          prevTime.current = audio.currentTime;
          lastSaved.current = audio.currentTime;
          setTime(audio.currentTime);
          pendingSeek.current = null;
        }
      },
      durationchange: () => {
        if (Number.isFinite(audio.duration)) setDuration(audio.duration);
      },
      play: () => {
        setPlaying(true);
        if (!playedOnce.current) {
          playedOnce.current = true;
          live.current.options.onFirstPlay?.();
        }
      },
      pause: () => {
        setPlaying(false);
        setTime(audio.currentTime);
        if (silentPause.current) silentPause.current = false;
        else if (pausingForRepeat.current) pausingForRepeat.current = false;
        else report("pause");
      },
      ended: () => {
        setPlaying(false);
        report("end");
        nearEnd();
      },
      seeked: () => setTime(audio.currentTime),
      volumechange: () => setMuted(audio.muted),
      ratechange: () => setRate(audio.playbackRate),
      error: () => live.current.options.onSourceError?.(),
    });
  }, [audio, report, nearEnd]);

  return {
    audioRef: audioRef as RefObject<HTMLAudioElement | null>,
    /** Where the page places the element. */
    slotRef,
    state: { playing, time, duration: duration || knownDuration || 0, rate, muted, loop, repeat, repeatWait },
    actions: { seek, toggle, changeRate, toggleMute, markLoop, toggleRepeat },
  };
}

export type AudioEngine = ReturnType<typeof useAudioEngine>;
