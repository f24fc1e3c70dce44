import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { customerPlans, webhookEvents } from "../../db/schema/billing";
import { badRequest } from "../../lib/errors";

/** The part of a PayPal webhook event we read; everything else is stored as received. */
const webhookEventSchema = z.object({
  id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(200),
  resource: z.record(z.string(), z.unknown()).default({}),
});

/**
 * The order an Orders v2 event names: the order itself (CHECKOUT.ORDER.*), or the order of a
 * capture (PAYMENT.CAPTURE.*, in `supplementary_data.related_ids.order_id`).
 */
function orderOf(type: string, resource: Record<string, unknown>): string | null {
  if (type.startsWith("CHECKOUT.ORDER.")) return typeof resource.id === "string" ? resource.id : null;
  if (!type.startsWith("PAYMENT.CAPTURE.")) return null;
  const related = z
    .object({ supplementary_data: z.object({ related_ids: z.object({ order_id: z.string() }) }) })
    .safeParse(resource);
  return related.success ? related.data.supplementary_data.related_ids.order_id : null;
}

/** The payment providers' webhooks: each delivery kept once by event id, its subscription re-read. */
export function createWebhookHandler(
  db: Db,
  sync: (customerPlanId: string) => Promise<unknown>,
  completeOrder?: (provider: "paypal", orderId: string) => Promise<void>,
) {
  return {
    /**
     * A PayPal webhook delivery, already verified: stored by event id (a repeat changes nothing),
     * then the subscription it names is re-read from PayPal and applied.
     */
    async handle(provider: "paypal", payload: unknown): Promise<{ duplicate: boolean }> {
      const parsed = webhookEventSchema.safeParse(payload);
      if (!parsed.success) throw badRequest("Not a PayPal webhook event");
      const event = parsed.data;
      const [stored] = await db
        .insert(webhookEvents)
        .values({ id: event.id, provider, eventType: event.event_type, payload: payload as object })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      if (!stored) {
        const [existing] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
        if (existing?.processedAt) return { duplicate: true };
      }
      const resource = event.resource;
      const subscriptionId = event.event_type.startsWith("BILLING.SUBSCRIPTION.")
        ? resource.id
        : resource.billing_agreement_id;
      if (typeof subscriptionId === "string") {
        const [row] = await db
          .select({ id: customerPlans.id })
          .from(customerPlans)
          .where(
            and(
              eq(customerPlans.provider, provider),
              eq(customerPlans.providerSubscriptionId, subscriptionId),
            ),
          );
        if (row) await sync(row.id);
      }
      const orderId = orderOf(event.event_type, resource);
      if (orderId && completeOrder) await completeOrder(provider, orderId);
      await db.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, event.id));
      return { duplicate: false };
    },
  };
}
