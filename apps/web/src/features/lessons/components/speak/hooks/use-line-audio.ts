import { useCallback, useEffect, useRef, useState } from "react";

export interface SpeakLine {
  cueId: string;
  lessonId: string;
  text: string;
  start: number;
  end: number;
  /** The lesson's (signed) audio URL. */
  src: string;
}

// the lesson's audio decoded once per page, shared by every line
const decoded = new Map<string, Promise<AudioBuffer | null>>();
function decodeOriginal(ctx: AudioContext, src: string): Promise<AudioBuffer | null> {
  let found = decoded.get(src);
  if (!found) {
    found = fetch(src, { credentials: "include" })
      .then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(new Error(String(res.status)))))
      .then((bytes) => ctx.decodeAudioData(bytes))
      .catch(() => null);
    decoded.set(src, found);
  }
  return found;
}

/**
 * The sound side of "repeat after me": one AudioContext for the dialog, the lesson decoded (for
 * the line's waveform and its score), and playback of the line or of any decoded sound, one at a time.
 */
export function useLineAudio(line: SpeakLine) {
  const [original, setOriginal] = useState<AudioBuffer | null>(null);
  const ctxRef = useRef<AudioContext | null>(null);
  const playingRef = useRef<{ stop: () => void } | null>(null);

  const context = useCallback(() => {
    ctxRef.current ??= new AudioContext();
    void ctxRef.current.resume();
    return ctxRef.current;
  }, []);

  useEffect(() => {
    let alive = true;
    void decodeOriginal(context(), line.src).then((buffer) => {
      if (alive && buffer) setOriginal(buffer);
    });
    return () => {
      alive = false;
      playingRef.current?.stop();
      void ctxRef.current?.close();
      ctxRef.current = null;
    };
  }, [context, line.src]);

  /** Plays a decoded sound (or a part of it); resolves when it ends or is stopped. */
  const play = useCallback(
    (buffer: AudioBuffer, offset = 0, duration?: number) =>
      new Promise<void>((resolve) => {
        const ctx = context();
        const node = ctx.createBufferSource();
        node.buffer = buffer;
        node.connect(ctx.destination);
        node.onended = () => resolve();
        playingRef.current = { stop: () => node.stop() };
        node.start(0, offset, duration);
      }),
    [context],
  );

  /** The line as the lesson says it: from the decoded lesson, else through an audio element. */
  const playLine = useCallback(async () => {
    if (original) return play(original, line.start, Math.max(0.1, line.end - line.start));
    await new Promise<void>((resolve) => {
      const el = new Audio(line.src);
      const done = () => {
        el.pause();
        resolve();
      };
      el.addEventListener("timeupdate", () => el.currentTime >= line.end && done());
      el.addEventListener("ended", done);
      el.addEventListener("error", done);
      el.addEventListener("loadedmetadata", () => {
        el.currentTime = line.start;
        void el.play().catch(done);
      });
      playingRef.current = { stop: done };
    });
  }, [line, original, play]);

  /** A recording decoded for playback and analysis; null when the browser cannot read it. */
  const decode = useCallback(
    async (blob: Blob) =>
      context()
        .decodeAudioData(await blob.arrayBuffer())
        .catch(() => null),
    [context],
  );

  const stop = useCallback(() => playingRef.current?.stop(), []);

  return { original, play, playLine, decode, stop };
}
