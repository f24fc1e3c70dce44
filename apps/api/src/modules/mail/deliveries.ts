import type { Speak } from "@parlons/contract";
import { and, asc, eq, inArray, isNull, notExists, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { type DeliveryVariables, mailCampaigns, mailDeliveries } from "../../db/schema/mail";
import { composeCampaignMail } from "./campaign-mail";
import { mailLease, WORK_LEFT } from "./lease";
import type { MailPreferencesService } from "./preferences-service";

/** `last_error` of a delivery not sent because its recipient refused news meanwhile. */
export const UNSUBSCRIBED = "not sent: the recipient unsubscribed from news";

/** A delivery is tried this many times (a lease that expired counts as a try) before it is FAILED. */
const MAX_ATTEMPTS = 3;

export interface ClaimedDelivery {
  id: string;
  campaignId: string;
  userId: string;
  email: string;
  lang: Speak;
  variables: DeliveryVariables;
  /** The attempt this claim is: the fencing token of later updates. */
  attempts: number;
}

/**
 * The delivery rows seen from the mail worker: claim a batch under a lease, then record each
 * result. Every update after the claim is fenced by (status SENDING, attempts): a worker whose
 * lease expired and whose row was claimed again by another cannot overwrite the newer claim,
 * nor count the delivery twice in its campaign.
 */
export function createDeliveryQueue(deps: {
  db: Db;
  publicUrl: string;
  preferences: Pick<MailPreferencesService, "unsubscribeParts" | "refusedAmong">;
}) {
  const { db, publicUrl } = deps;
  const lease = mailLease(db, mailDeliveries, MAX_ATTEMPTS);

  /** A campaign with no PENDING or SENDING delivery left is finished: SENT, or FAILED when nothing went out. */
  async function finishIfDone(tx: DbOrTx, campaignIds: string[], now: Date) {
    if (campaignIds.length === 0) return;
    await tx
      .update(mailCampaigns)
      .set({
        status: sql`case when ${mailCampaigns.sent} = 0 and ${mailCampaigns.failed} > 0 then 'FAILED' else 'SENT' end`,
        finishedAt: now,
      })
      .where(
        and(
          inArray(mailCampaigns.id, campaignIds),
          inArray(mailCampaigns.status, ["QUEUED", "SENDING"]),
          notExists(
            tx
              .select({ id: mailDeliveries.id })
              .from(mailDeliveries)
              .where(
                and(
                  eq(mailDeliveries.campaignId, mailCampaigns.id),
                  inArray(mailDeliveries.status, WORK_LEFT),
                ),
              ),
          ),
        ),
      );
  }

  async function bump(tx: DbOrTx, campaignId: string, field: "sent" | "failed" | "unsubscribed", by = 1) {
    const column = {
      sent: mailCampaigns.sent,
      failed: mailCampaigns.failed,
      unsubscribed: mailCampaigns.unsubscribed,
    }[field];
    await tx
      .update(mailCampaigns)
      .set({ [field]: sql`${column} + ${by}` })
      .where(eq(mailCampaigns.id, campaignId));
  }

  /** SENDING rows whose lease passed on their last attempt: the worker died each time; give up. */
  async function expireExhausted(now: Date) {
    await db.transaction(async (tx) => {
      const rows = await tx
        .update(mailDeliveries)
        .set({
          status: "FAILED",
          lockedUntil: null,
          lastError: sql`coalesce(${mailDeliveries.lastError}, 'the send did not finish before its lease expired')`,
        })
        .where(lease.exhausted(now))
        .returning({ campaignId: mailDeliveries.campaignId });
      const perCampaign = new Map<string, number>();
      for (const r of rows) perCampaign.set(r.campaignId, (perCampaign.get(r.campaignId) ?? 0) + 1);
      for (const [campaignId, n] of perCampaign) await bump(tx, campaignId, "failed", n);
      await finishIfDone(tx, [...perCampaign.keys()], now);
    });
  }

  return {
    /**
     * What is left to do, for /metrics: PENDING rows (waiting, retries included), SENDING rows
     * (claimed under a lease), and the age of the oldest PENDING one. Reads the rows the worker's
     * partial index holds, not the whole table.
     */
    async depth(now = new Date()): Promise<{ queued: number; running: number; oldestAgeSeconds: number }> {
      const [row] = await db
        .select({
          queued: sql<number>`count(*) filter (where ${mailDeliveries.status} = 'PENDING')`.mapWith(Number),
          running: sql<number>`count(*) filter (where ${mailDeliveries.status} = 'SENDING')`.mapWith(Number),
          oldest: sql<
            string | null
          >`min(${mailDeliveries.createdAt}) filter (where ${mailDeliveries.status} = 'PENDING')`,
        })
        .from(mailDeliveries)
        .where(inArray(mailDeliveries.status, WORK_LEFT));
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
      return {
        queued: row?.queued ?? 0,
        running: row?.running ?? 0,
        oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
      };
    },

    /**
     * Claims up to `limit` deliveries in one statement: the sub-select locks rows with
     * FOR UPDATE SKIP LOCKED (rows another worker is claiming are skipped, not waited for),
     * the UPDATE marks them SENDING under a lease and counts the attempt.
     */
    async claim(now: Date, opts: { limit: number; leaseMs: number }) {
      await expireExhausted(now);
      const claimed: ClaimedDelivery[] = await lease.claim(
        now,
        opts,
        [asc(mailDeliveries.lockedUntil), asc(mailDeliveries.createdAt)],
        {
          id: mailDeliveries.id,
          campaignId: mailDeliveries.campaignId,
          userId: mailDeliveries.userId,
          email: mailDeliveries.email,
          lang: mailDeliveries.lang,
          variables: mailDeliveries.variables,
          attempts: mailDeliveries.attempts,
        },
      );
      if (claimed.length === 0) return [];
      const campaignIds = [...new Set(claimed.map((d) => d.campaignId))];
      // news refused after the campaign was queued: that delivery ends here, never sent, and the
      // campaign counts its recipient as unsubscribed, not as a failure (unsubscribed_at set, so
      // a link of this campaign used later cannot count them again)
      const refused = await deps.preferences.refusedAmong(
        claimed.map((d) => d.userId),
        "news",
      );
      for (const delivery of claimed.filter((d) => refused.has(d.userId))) {
        await db.transaction(async (tx) => {
          const [row] = await tx
            .update(mailDeliveries)
            .set({ status: "FAILED", lockedUntil: null, lastError: UNSUBSCRIBED })
            .where(lease.stillClaimed(delivery))
            .returning({ id: mailDeliveries.id });
          if (!row) return;
          const [first] = await tx
            .update(mailDeliveries)
            .set({ unsubscribedAt: now })
            .where(and(eq(mailDeliveries.id, row.id), isNull(mailDeliveries.unsubscribedAt)))
            .returning({ id: mailDeliveries.id });
          if (first) await bump(tx, delivery.campaignId, "unsubscribed");
          await finishIfDone(tx, [delivery.campaignId], now);
        });
      }
      await db
        .update(mailCampaigns)
        .set({ status: "SENDING", startedAt: now })
        .where(and(inArray(mailCampaigns.id, campaignIds), eq(mailCampaigns.status, "QUEUED")));
      const campaigns = new Map(
        (await db.select().from(mailCampaigns).where(inArray(mailCampaigns.id, campaignIds))).map((c) => [
          c.id,
          c,
        ]),
      );
      return claimed
        .filter((delivery) => !refused.has(delivery.userId))
        .map((delivery) => {
          const campaign = campaigns.get(delivery.campaignId);
          // news: List-Unsubscribe headers (RFC 8058 one-click) and a visible link, naming the campaign
          const unsubscribe = deps.preferences.unsubscribeParts(
            delivery.userId,
            "news",
            delivery.lang,
            delivery.campaignId,
          );
          const mail = campaign ? composeCampaignMail(campaign, delivery, publicUrl, unsubscribe) : null;
          return { delivery, mail };
        });
    },

    /** Records a send the SMTP server accepted; false when this claim was superseded. */
    async complete(delivery: ClaimedDelivery, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await lease.complete(tx, delivery, now))) return false;
        await bump(tx, delivery.campaignId, "sent");
        await finishIfDone(tx, [delivery.campaignId], now);
        return true;
      });
    },

    /**
     * Gives back deliveries claimed but not tried (a worker stopping mid-batch): PENDING again,
     * lease cleared, the attempt uncounted, so another worker takes them at once. Fenced like
     * the other updates: a claim already taken over is left alone. Returns how many were released.
     */
    async release(deliveries: ClaimedDelivery[]): Promise<number> {
      let released = 0;
      for (const delivery of deliveries) if (await lease.release(delivery)) released += 1;
      return released;
    },

    /** Records a failed try: PENDING again after `retryInMs`, or FAILED on the last attempt. */
    async fail(
      delivery: ClaimedDelivery,
      error: string,
      now: Date,
      retryInMs: number,
    ): Promise<"retry" | "failed" | null> {
      return db.transaction(async (tx) => {
        const outcome = await lease.fail(tx, delivery, error, now, retryInMs);
        if (outcome !== "failed") return outcome;
        await bump(tx, delivery.campaignId, "failed");
        await finishIfDone(tx, [delivery.campaignId], now);
        return "failed";
      });
    },
  };
}
export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
