import { PERMISSIONS } from "@parlons/contract";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { type OwnerPolicy, ownerPolicy } from "../../plugins/access";

const byId = z.object({ id: z.uuid() });
const byUserId = z.object({ user_id: z.uuid().optional() });

/**
 * A customer plan is acted on by its subscriber, or by staff with customer-plans.manage (demo
 * checkouts: the subscriber only); to anyone else it does not exist (404). The id is in the path,
 * or in the body for the spec's `update-plan-status` and `update-last-payment`.
 */
export const customerPlanPolicy = (
  subscriberOf: (customerPlanId: string) => Promise<string | null>,
  opts: { reads: "params" | "body"; staff: boolean },
): OwnerPolicy => {
  const { reads } = opts;
  return ownerPolicy({
    resource: "customer plan",
    description: opts.staff ? "the subscriber, or staff with `customer-plans.manage`" : "the subscriber only",
    ...(opts.staff ? { staff: PERMISSIONS.customerPlansManage } : {}),
    reads,
    input: (request: FastifyRequest) =>
      byId.safeParse(reads === "params" ? request.params : request.body).data?.id,
    owns: async (principal, id) => (await subscriberOf(id)) === principal.id,
  });
};

/** Whose plans and payments a request reads: the caller's, or (staff only) the user named in ?user_id. */
export const customerPlansOfPolicy = ownerPolicy({
  resource: "user",
  description: "the caller's own; another user's (`?user_id=`) for staff with `customer-plans.manage`",
  staff: PERMISSIONS.customerPlansManage,
  reads: "query",
  input: (request) => {
    const parsed = byUserId.safeParse(request.query);
    return parsed.success ? { userId: parsed.data.user_id } : undefined;
  },
  owns: (principal, { userId }) => userId === undefined || userId === principal.id,
});

/** A receipt is read by the learner it was issued to, or by staff with customer-plans.manage; to anyone else it does not exist (404). */
export const receiptPolicy = (ownerOf: (receiptId: string) => Promise<string | null>): OwnerPolicy =>
  ownerPolicy({
    resource: "receipt",
    description: "the learner it was issued to, or staff with `customer-plans.manage`",
    staff: PERMISSIONS.customerPlansManage,
    reads: "params",
    input: (request: FastifyRequest) => byId.safeParse(request.params).data?.id,
    owns: async (principal, id) => (await ownerOf(id)) === principal.id,
  });

/** A purchase is acted on by its buyer (demo checkouts: the buyer only), or by staff with customer-plans.manage; to anyone else it does not exist (404). */
export const purchasePolicy = (
  buyerOf: (purchaseId: string) => Promise<string | null>,
  opts: { staff: boolean },
): OwnerPolicy =>
  ownerPolicy({
    resource: "purchase",
    description: opts.staff ? "the buyer, or staff with `customer-plans.manage`" : "the buyer only",
    ...(opts.staff ? { staff: PERMISSIONS.customerPlansManage } : {}),
    reads: "params",
    input: (request: FastifyRequest) => byId.safeParse(request.params).data?.id,
    owns: async (principal, id) => (await buyerOf(id)) === principal.id,
  });
