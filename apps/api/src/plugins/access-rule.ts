import type { PermissionSlug } from "@parlons/contract";
import type { FastifyRequest } from "fastify";
import type { Principal } from "../lib/principal";

// The types of a route's access rule, apart from the plugin that enforces them (./access) so
// that the OpenAPI description (./operation-docs), which the plugin calls, can read them too.

/**
 * Who may call a route, declared with its schemas (`config: { access: ... }`) and checked in
 * `onRequest`, before the body is read or validated: anonymous → 401, signed in without the
 * right → 403 (or 404 where the object's existence is private), and only then 400/422.
 */
export type AccessRule =
  | { readonly kind: "public"; readonly identify: boolean }
  | { readonly kind: "signedIn" }
  | { readonly kind: "permission"; readonly slug: PermissionSlug }
  | { readonly kind: "owner"; readonly policy: OwnerPolicy };

/**
 * "The object's owner, or staff with a permission." One per resource, in `modules/<m>/policy.ts`.
 * It reads what names the object (params, query or body) before validation: a malformed input
 * makes `input` return undefined, the policy steps aside and validation answers 400/422.
 */
export interface OwnerPolicy<I = unknown> {
  /** The object, as in "Registration not found"; also keys the access-matrix test's fixtures. */
  readonly resource: string;
  /** Who passes, in words (shown in the OpenAPI document). */
  readonly description: string;
  /** Staff with this permission act on anyone's object without a lookup. */
  readonly staff?: PermissionSlug;
  /** Where the object's id is: params and query are checked in onRequest, body in preValidation. */
  readonly reads: "params" | "query" | "body";
  /** 404 (default: to anyone else the object does not exist) or 403. */
  readonly denied?: 403 | 404;
  input(request: FastifyRequest): I | undefined;
  /** Whether the principal owns the object the input names (an unknown object: false). */
  owns(principal: Principal, input: I): Promise<boolean> | boolean;
}
