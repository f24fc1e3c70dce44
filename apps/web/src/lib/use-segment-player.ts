import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Plays one segment of a lesson's audio, at a given speed (1 by default; the pitch is kept): seeks
 * to its start, plays, and pauses at its end (checked every frame, so it stops within a frame of
 * the end rather than a `timeupdate` later).
 */
export function useSegmentPlayer(onSourceError?: () => void, testId = "review-audio") {
  const ref = useRef<HTMLAudioElement>(null);
  const end = useRef(0);
  const [playing, setPlaying] = useState(false);

  const play = useCallback((src: string, start: number, stop: number, rate = 1) => {
    const el = ref.current;
    if (!el) return;
    end.current = stop;
    const begin = () => {
      el.playbackRate = rate;
      el.currentTime = start;
      void el.play().catch(() => setPlaying(false));
    };
    if (el.getAttribute("src") !== src) {
      el.src = src;
      el.addEventListener("loadedmetadata", begin, { once: true });
      el.load();
    } else if (el.readyState >= 1) begin();
    else el.addEventListener("loadedmetadata", begin, { once: true });
  }, []);

  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      const el = ref.current;
      if (el && !el.paused && el.currentTime >= end.current) el.pause();
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing]);

  useEffect(() => () => ref.current?.pause(), []);

  return {
    playing,
    play,
    audioProps: {
      ref,
      preload: "auto" as const,
      onPlay: () => setPlaying(true),
      onPause: () => setPlaying(false),
      onEnded: () => setPlaying(false),
      onError: () => {
        setPlaying(false);
        onSourceError?.();
      },
      "data-testid": testId,
    },
  };
}
