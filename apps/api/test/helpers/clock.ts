import type { Clock } from "../../src/lib/clock";

/** A clock a test sets (`set`) and gives back to the real time (`reset`); the real time until set. */
export interface TestClock extends Clock {
  set(at: string | Date): void;
  reset(): void;
}

export function testClock(): TestClock {
  let fixed: Date | undefined;
  const clock = (() => new Date(fixed ?? Date.now())) as TestClock;
  clock.set = (at) => {
    fixed = new Date(at);
  };
  clock.reset = () => {
    fixed = undefined;
  };
  return clock;
}
