/** Playback speeds offered to learners (spec of issue 3: 0.5× to 2×). */
export const SPEEDS = [0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2] as const;
const MIN_SPEED = 0.5;
const MAX_SPEED = 2;

/** The next speed step slower (-1) or faster (+1) than `current`, clamped to 0.5–2. */
export function stepSpeed(current: number, direction: -1 | 1): number {
  if (direction > 0) return SPEEDS.find((s) => s > current + 1e-9) ?? MAX_SPEED;
  return [...SPEEDS].reverse().find((s) => s < current - 1e-9) ?? MIN_SPEED;
}

export function clampSpeed(rate: number): number {
  return Number.isFinite(rate) ? Math.min(MAX_SPEED, Math.max(MIN_SPEED, rate)) : 1;
}

const SPEED_KEY = "parlons.speed";

type SpeedStorage = Pick<Storage, "getItem" | "setItem">;

function browserStorage(): SpeedStorage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** The speed the learner chose last (kept from one lesson to the next), else 1×. */
export function savedSpeed(storage: SpeedStorage | null = browserStorage()): number {
  try {
    const raw = storage?.getItem(SPEED_KEY);
    return raw ? clampSpeed(Number(raw)) : 1;
  } catch {
    return 1;
  }
}

export function saveSpeed(rate: number, storage: SpeedStorage | null = browserStorage()): void {
  try {
    storage?.setItem(SPEED_KEY, String(clampSpeed(rate)));
  } catch {
    // storage full or disabled (private mode): the speed lasts for this lesson only
  }
}
