import type { Plan } from "@parlons/contract";

// What each plan opens comes from the API (`opens` of `GET /v1/plans/active`, derived there from
// the courses, lessons and events that exist); what staff wrote is compared with it here.

/** A feature's text reduced to its letters and digits, lower case, without accents or quotes. */
function key(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The features staff wrote for a plan that say something of their own: those that repeat one of
 * `taken` (what the plan's derived list already says, and for a paid plan everything the free
 * plan lists) or an earlier one are left out.
 */
export function extraFeatures(written: readonly string[], taken: readonly string[]): string[] {
  const seen = new Set(taken.map(key));
  const extras: string[] = [];
  for (const text of written) {
    const k = key(text);
    if (!k || seen.has(k)) continue;
    seen.add(k);
    extras.push(text);
  }
  return extras;
}

/** The free plan the paid plans are compared with: the default one, else the first free one. */
export function freePlanOf<P extends Plan>(plans: readonly P[]): P | undefined {
  return plans.find((p) => !p.premium && p.is_default) ?? plans.find((p) => !p.premium);
}
