import { type SyntheticEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { type AbLoop, isLoopActive, loopJump, NO_LOOP, nextLoopState } from "../lib/ab-loop";
import { repeatPauseAfter, type TranscriptCue } from "../lib/cues";
import { clampSpeed } from "../lib/speed";
import { clampTime, isNearEnd } from "../lib/time";

export type PositionReason = "interval" | "pause" | "end" | "unload";

export interface EngineOptions {
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
}

const SAVE_EVERY_MS = 10_000;

/**
 * The player's engine: owns the `<audio>` element and everything that happens in time (the
 * A–B loop, "repeat after me" pauses, near-end and resume position reports). The components
 * only read its state and call its actions.
 */
export function useAudioEngine(options: EngineOptions) {
  const { src, startAt = 0, knownDuration } = options;
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(startAt);
  const [duration, setDuration] = useState(knownDuration ?? 0);
  const [rate, setRate] = useState(1);
  const [muted, setMuted] = useState(false);
  const [loop, setLoop] = useState<AbLoop>(NO_LOOP);
  const [repeat, setRepeat] = useState(false);
  const [repeatWait, setRepeatWait] = useState(false);

  // latest values for event handlers and the animation loop
  const live = useRef({ options, loop, repeat });
  useLayoutEffect(() => {
    live.current = { options, loop, repeat };
  });
  const prevTime = useRef(startAt);
  const repeatTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pausingForRepeat = useRef(false);
  const nearEndSent = useRef(false);
  const playedOnce = useRef(false);
  /** Position to restore once metadata loads (start, or after a new signed URL). */
  const pendingSeek = useRef<number | null>(startAt > 0 ? startAt : null);
  const lastSaved = useRef(startAt);

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

  // a new lesson resets the per-lesson state; a new src (signed URL refresh) keeps the position
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new src
  useEffect(() => {
    nearEndSent.current = false;
    playedOnce.current = false;
    setLoop(NO_LOOP);
    cancelRepeatWait();
    return () => {
      const el = audioRef.current;
      if (el && el.currentTime > 0) pendingSeek.current = el.currentTime;
    };
  }, [src, cancelRepeatWait]);

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

  // save on tab hide / close and when leaving the lesson
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
      report("unload");
    };
  }, [report]);

  useEffect(() => () => clearTimeout(repeatTimer.current), []);

  type AudioEvent = SyntheticEvent<HTMLAudioElement>;
  /** Props of the `<audio>` element the engine drives. */
  const audioProps = {
    ref: audioRef,
    src,
    preload: "metadata" as const,
    onLoadedMetadata: (e: AudioEvent) => {
      const el = e.currentTarget;
      el.preservesPitch = true;
      el.playbackRate = rate;
      setDuration(el.duration);
      if (pendingSeek.current !== null) {
        el.currentTime = clampTime(pendingSeek.current, el.duration);
        prevTime.current = el.currentTime;
        lastSaved.current = el.currentTime;
        setTime(el.currentTime);
        pendingSeek.current = null;
      }
    },
    onDurationChange: (e: AudioEvent) => {
      if (Number.isFinite(e.currentTarget.duration)) setDuration(e.currentTarget.duration);
    },
    onPlay: () => {
      setPlaying(true);
      if (!playedOnce.current) {
        playedOnce.current = true;
        live.current.options.onFirstPlay?.();
      }
    },
    onPause: () => {
      setPlaying(false);
      setTime(audioRef.current?.currentTime ?? 0);
      if (pausingForRepeat.current) pausingForRepeat.current = false;
      else report("pause");
    },
    onEnded: () => {
      setPlaying(false);
      report("end");
      nearEnd();
    },
    onSeeked: (e: AudioEvent) => setTime(e.currentTarget.currentTime),
    onVolumeChange: (e: AudioEvent) => setMuted(e.currentTarget.muted),
    onRateChange: (e: AudioEvent) => setRate(e.currentTarget.playbackRate),
    onError: () => live.current.options.onSourceError?.(),
  };

  return {
    audioRef,
    audioProps,
    state: { playing, time, duration: duration || knownDuration || 0, rate, muted, loop, repeat, repeatWait },
    actions: { seek, toggle, changeRate, toggleMute, markLoop, toggleRepeat },
  };
}

export type AudioEngine = ReturnType<typeof useAudioEngine>;
