import { errorResponse } from "@parlons/contract";

/** The error envelope under each given status, for a route's `response` schema. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof errorResponse> {
  return Object.fromEntries(statuses.map((s) => [s, errorResponse])) as Record<S, typeof errorResponse>;
}
