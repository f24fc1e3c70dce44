/** The bench seed's accounts and ids, shared by its steps. */

export const BENCH_DOMAIN = "bench.parlons.test";
/** User n (1-based) is staff when n is a multiple of this: staff1 is user 200. */
export const STAFF_EVERY = 200;

/**
 * Deterministic ids, so that every step can name rows of another without a join: the md5 of
 * `bench-<kind>-<n>` with the version (4) and variant (8) digits of a UUID v4, as the API's
 * id validation wants.
 */
export const uid = (kind: string, n: string) =>
  `overlay(overlay(md5('bench-${kind}-' || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;
