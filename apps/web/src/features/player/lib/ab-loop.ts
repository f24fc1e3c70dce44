/** A–B loop: `a` then `b` marked by the learner; playback jumps back to `a` when it reaches `b`. */
export interface AbLoop {
  a: number | null;
  b: number | null;
}

export const NO_LOOP: AbLoop = { a: null, b: null };

/** One button cycles: set A → set B → clear. A B at or before A restarts with a new A. */
export function nextLoopState(loop: AbLoop, time: number): AbLoop {
  if (loop.a === null) return { a: time, b: null };
  if (loop.b === null) return time > loop.a + 0.2 ? { a: loop.a, b: time } : { a: time, b: null };
  return NO_LOOP;
}

export function isLoopActive(loop: AbLoop): loop is { a: number; b: number } {
  return loop.a !== null && loop.b !== null;
}

/** Where to jump at `time`, or null to keep playing. */
export function loopJump(loop: AbLoop, time: number): number | null {
  if (!isLoopActive(loop)) return null;
  return time >= loop.b || time < loop.a - 0.5 ? loop.a : null;
}
