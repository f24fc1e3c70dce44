/** "m:ss" or "h:mm:ss" for a number of seconds (negative and NaN read as 0). */
export function formatClock(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Clamp a seek target into the audio. */
export function clampTime(time: number, duration: number): number {
  const max = Number.isFinite(duration) && duration > 0 ? duration : Number.POSITIVE_INFINITY;
  return Math.min(max, Math.max(0, time));
}

/** Where to start: the saved position, unless it is (almost) the end, then from the start. */
export function resumePoint(saved: number | null | undefined, duration: number | null | undefined): number {
  if (!saved || saved < 1) return 0;
  if (duration && saved >= duration - 2) return 0;
  return saved;
}

/** Auto-mark done threshold. */
const DONE_RATIO = 0.95;
export function isNearEnd(time: number, duration: number): boolean {
  return Number.isFinite(duration) && duration > 0 && time / duration >= DONE_RATIO;
}
