import { describe, it } from "vitest";
import { redisAnswers, TEST_REDIS_URL } from "./redis";

/**
 * Whether a suite that needs an outside service (Redis, a reachable PostgreSQL) runs here, given
 * what is missing (undefined: nothing). On a developer's machine a missing service skips the suite
 * with a warning; in CI (CI=true: `.ci/run` starts Redis and PostgreSQL itself) the suite is
 * replaced by one failing test that says what is missing, so that a run where it could not run
 * never passes.
 */
export function runsWith(suite: string, missing: string | undefined): boolean {
  if (!missing) return true;
  if (process.env.CI === "true") {
    describe(suite, () => {
      it(`has what it needs (${missing})`, () => {
        throw new Error(`${suite}: ${missing}. CI must provide it (.ci/run starts Redis and PostgreSQL).`);
      });
    });
  } else console.warn(`!! ${suite} skipped: ${missing}`);
  return false;
}

/** Why Redis cannot be used at TEST_REDIS_URL, or undefined when it answers. */
export async function redisMissing(): Promise<string | undefined> {
  return (await redisAnswers()) ? undefined : `no Redis at ${TEST_REDIS_URL}`;
}
