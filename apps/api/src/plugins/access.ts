import type { PermissionSlug } from "@parlons/contract";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from "fastify";
import fp from "fastify-plugin";
import { forbidden, notFound, unauthenticated } from "../lib/errors";
import type { Principal } from "../lib/principal";
import type { AccessRule, OwnerPolicy } from "./access-rule";
import { documentOperation } from "./operation-docs";

export type { AccessRule, OwnerPolicy } from "./access-rule";

/** Builds an owner policy with its input type checked against `owns`. */
export const ownerPolicy = <I>(policy: OwnerPolicy<I>): OwnerPolicy => policy as unknown as OwnerPolicy;

export const access = {
  /** Anyone; a token, when sent, is not even looked at. */
  public: { kind: "public", identify: false },
  /** Anyone; a valid Bearer token identifies the caller (staff see more), a bad one is 401. */
  publicViewer: { kind: "public", identify: true },
  /** Any signed-in user of an active account. */
  signedIn: { kind: "signedIn" },
  /** Signed-in users holding this permission. */
  permission: (slug: PermissionSlug): AccessRule => ({ kind: "permission", slug }),
  /** The object's owner, or staff with the policy's permission. */
  owner: (policy: OwnerPolicy): AccessRule => ({ kind: "owner", policy }),
} as const satisfies Record<string, AccessRule | ((...args: never[]) => AccessRule)>;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Required on every route of the API: start-up fails without it. */
    access?: AccessRule;
  }
  interface FastifyInstance {
    /** Every API route with its access rule, as registered (the access-matrix test walks it). */
    routeAccess: RouteAccess[];
  }
}

export interface RouteAccess {
  /** Its name in the OpenAPI document (`lib/operations.ts`). */
  operationId: string;
  method: string;
  url: string;
  access: AccessRule;
  schema: FastifySchema;
  bodyLimit?: number;
}

/** The errors the rules answer with (the matrix test compares responses with them). */
export const accessErrors = {
  anonymous: () => unauthenticated(),
  missingPermission: (slug: PermissionSlug) => forbidden(`Missing permission: ${slug}`),
  notOwner: (policy: Pick<OwnerPolicy, "resource" | "denied">) =>
    policy.denied === 403
      ? forbidden(`Not your ${policy.resource}`)
      : notFound(policy.resource.charAt(0).toUpperCase() + policy.resource.slice(1)),
};

function principalRequired(request: FastifyRequest): Principal {
  if (!request.principal) throw accessErrors.anonymous();
  return request.principal;
}

/**
 * An owner policy's answer for a principal and a request: "invalid" when what names the object
 * is malformed (validation then answers 400/422: nothing was looked up, nothing is revealed).
 */
export async function ownerDecision(
  policy: OwnerPolicy,
  principal: Principal,
  request: { params: unknown; query: unknown; body?: unknown },
): Promise<"allow" | "deny" | "invalid"> {
  if (policy.staff && principal.permissions.has(policy.staff)) return "allow";
  const input = policy.input(request as FastifyRequest);
  if (input === undefined) return "invalid";
  return (await policy.owns(principal, input)) ? "allow" : "deny";
}

async function checkOwner(policy: OwnerPolicy, request: FastifyRequest): Promise<void> {
  if ((await ownerDecision(policy, principalRequired(request), request)) === "deny")
    throw accessErrors.notOwner(policy);
}

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : ([] as T[]).concat(hooks));

/**
 * Registered once inside the `/api` scope, before the modules: every route registered after it
 * must declare `config.access`, gets its check as its first onRequest hook and its OpenAPI
 * `security` from the rule. Each route and its rule go in `table` (the root's `routeAccess`).
 */
export default fp(
  async (app: FastifyInstance, opts: { table: RouteAccess[] }) => {
    const { table } = opts;

    const principalOnly = async (request: FastifyRequest, reply: FastifyReply, required: boolean) => {
      await (required ? app.authenticate(request, reply) : app.identify(request, reply));
    };

    function checksOf(rule: AccessRule): {
      onRequest?: onRequestHookHandler;
      preValidation?: preValidationHookHandler;
    } {
      switch (rule.kind) {
        case "public":
          return rule.identify
            ? { onRequest: async (request, reply) => principalOnly(request, reply, false) }
            : {};
        case "signedIn":
          return { onRequest: async (request, reply) => principalOnly(request, reply, true) };
        case "permission":
          return {
            onRequest: async (request, reply) => {
              await principalOnly(request, reply, true);
              if (!principalRequired(request).permissions.has(rule.slug))
                throw accessErrors.missingPermission(rule.slug);
            },
          };
        case "owner": {
          const { policy } = rule;
          if (policy.reads === "body") {
            return {
              onRequest: async (request, reply) => principalOnly(request, reply, true),
              preValidation: async (request) => checkOwner(policy, request),
            };
          }
          return {
            onRequest: async (request, reply) => {
              await principalOnly(request, reply, true);
              await checkOwner(policy, request);
            },
          };
        }
      }
    }

    const operationIds = new Set<string>();
    app.addHook("onRoute", (route: RouteOptions) => {
      const rule = route.config?.access;
      if (!rule) {
        throw new Error(
          `${route.method} ${route.url} declares no access rule: add config: { access: access.public | access.signedIn | access.permission(slug) | access.owner(policy) }`,
        );
      }
      const methods = ([] as string[]).concat(route.method);
      const checks = checksOf(rule);
      if (checks.onRequest) route.onRequest = [checks.onRequest, ...asList(route.onRequest)];
      if (checks.preValidation) route.preValidation = [checks.preValidation, ...asList(route.preValidation)];
      // its operationId, summary, security and error statuses in the OpenAPI document
      const operationId = documentOperation(route, rule, operationIds);
      if (!methods.includes("HEAD")) {
        for (const method of methods) {
          table.push({
            operationId,
            method,
            url: route.url,
            access: rule,
            schema: route.schema ?? {},
            bodyLimit: route.bodyLimit,
          });
        }
      }
    });
  },
  { name: "access", dependencies: ["auth"] },
);
