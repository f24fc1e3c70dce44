import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";

export interface MediaSessionOptions {
  title: string;
  /** Course title: Media Session artist. */
  subtitle: string;
  artwork?: string | null;
  seek: (to: number) => void;
  onPrevious?: () => void;
  onNext?: () => void;
  /** Whole seconds played: the lock screen's position is refreshed once a second. */
  secondTick: number;
}

/** Lock screen and headset buttons: metadata, play/pause/seek/track handlers and the position. */
export function useMediaSession(audioRef: RefObject<HTMLAudioElement | null>, options: MediaSessionOptions) {
  const { title, subtitle, artwork, seek, secondTick } = options;
  const hasPrevious = Boolean(options.onPrevious);
  const hasNext = Boolean(options.onNext);
  const live = useRef(options);
  useLayoutEffect(() => {
    live.current = options;
  });

  useEffect(() => {
    if (!("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({
      title,
      artist: subtitle,
      album: "Parlons",
      artwork: artwork ? [{ src: new URL(artwork, window.location.href).href }] : [],
    });
    const at = () => audioRef.current?.currentTime ?? 0;
    const handlers: [MediaSessionAction, MediaSessionActionHandler | null][] = [
      ["play", () => void audioRef.current?.play().catch(() => undefined)],
      ["pause", () => audioRef.current?.pause()],
      ["seekbackward", (d) => seek(at() - (d.seekOffset ?? 10))],
      ["seekforward", (d) => seek(at() + (d.seekOffset ?? 10))],
      ["seekto", (d) => d.seekTime !== undefined && seek(d.seekTime)],
      ["previoustrack", hasPrevious ? () => live.current.onPrevious?.() : null],
      ["nexttrack", hasNext ? () => live.current.onNext?.() : null],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // action not supported by this browser
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // ignore
        }
      }
      session.metadata = null;
    };
  }, [audioRef, title, subtitle, artwork, seek, hasPrevious, hasNext]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once a second is plenty for the lock screen
  useEffect(() => {
    const el = audioRef.current;
    if (!el || !("mediaSession" in navigator) || !Number.isFinite(el.duration) || el.duration <= 0) return;
    try {
      navigator.mediaSession.setPositionState({
        duration: el.duration,
        playbackRate: el.playbackRate,
        position: Math.min(el.currentTime, el.duration),
      });
    } catch {
      // ignore invalid states during seeks
    }
  }, [secondTick]);
}
