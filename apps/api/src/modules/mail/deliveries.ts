import { type RenderedMail, renderMail } from "@parlons/contract";
import { and, asc, eq, gte, inArray, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { type DeliveryVariables, mailCampaigns, mailDeliveries } from "../../db/schema";
import { textsIn } from "./transactional";

/** A delivery is tried this many times (a lease that expired counts as a try) before it is FAILED. */
export const MAX_ATTEMPTS = 3;

export interface ClaimedDelivery {
  id: string;
  campaignId: string;
  email: string;
  lang: "FR" | "EN";
  variables: DeliveryVariables;
  /** The attempt this claim is: the fencing token of later updates. */
  attempts: number;
}

const WORK_LEFT = ["PENDING", "SENDING"] as const;

/**
 * The delivery rows seen from the mail worker: claim a batch under a lease, then record each
 * result. Every update after the claim is fenced by (status SENDING, attempts): a worker whose
 * lease expired and whose row was claimed again by another cannot overwrite the newer claim,
 * nor count the delivery twice in its campaign.
 */
export function createDeliveryQueue(deps: { db: Db; publicUrl: string }) {
  const { db, publicUrl } = deps;

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

  async function bump(tx: DbOrTx, campaignId: string, field: "sent" | "failed", by = 1) {
    const column = field === "sent" ? mailCampaigns.sent : mailCampaigns.failed;
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
        .where(
          and(
            eq(mailDeliveries.status, "SENDING"),
            lte(mailDeliveries.lockedUntil, now),
            gte(mailDeliveries.attempts, MAX_ATTEMPTS),
          ),
        )
        .returning({ campaignId: mailDeliveries.campaignId });
      const perCampaign = new Map<string, number>();
      for (const r of rows) perCampaign.set(r.campaignId, (perCampaign.get(r.campaignId) ?? 0) + 1);
      for (const [campaignId, n] of perCampaign) await bump(tx, campaignId, "failed", n);
      await finishIfDone(tx, [...perCampaign.keys()], now);
    });
  }

  /** Work that may be taken now: PENDING and due, or SENDING with an expired lease, tries left. */
  const claimable = (now: Date) =>
    and(
      inArray(mailDeliveries.status, WORK_LEFT),
      or(isNull(mailDeliveries.lockedUntil), lte(mailDeliveries.lockedUntil, now)),
      lt(mailDeliveries.attempts, MAX_ATTEMPTS),
    );

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
      const candidates = db
        .select({ id: mailDeliveries.id })
        .from(mailDeliveries)
        .where(claimable(now))
        .orderBy(asc(mailDeliveries.lockedUntil), asc(mailDeliveries.createdAt))
        .limit(opts.limit)
        .for("update", { skipLocked: true });
      const claimed: ClaimedDelivery[] = await db
        .update(mailDeliveries)
        .set({
          status: "SENDING",
          attempts: sql`${mailDeliveries.attempts} + 1`,
          lockedUntil: new Date(now.getTime() + opts.leaseMs),
        })
        // = any(array(…)), not in (…): the array is an init plan run once, while a nested loop may
        // rescan an IN sub-select, and each rescan would lock (and claim) `limit` more rows
        .where(and(sql`${mailDeliveries.id} = any(array(${candidates}))`, claimable(now)))
        .returning({
          id: mailDeliveries.id,
          campaignId: mailDeliveries.campaignId,
          email: mailDeliveries.email,
          lang: mailDeliveries.lang,
          variables: mailDeliveries.variables,
          attempts: mailDeliveries.attempts,
        });
      if (claimed.length === 0) return [];
      const campaignIds = [...new Set(claimed.map((d) => d.campaignId))];
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
      return claimed.map((delivery) => {
        const campaign = campaigns.get(delivery.campaignId);
        const site = `${publicUrl}${delivery.lang === "EN" ? "/en" : ""}`;
        const mail: RenderedMail | null = campaign
          ? renderMail(
              textsIn(
                {
                  name: "",
                  subject_fr: campaign.subjectFr,
                  subject_en: campaign.subjectEn,
                  body_fr: campaign.bodyFr,
                  body_en: campaign.bodyEn,
                },
                delivery.lang,
              ),
              { ...delivery.variables, email: delivery.email, site_url: site, action_url: site },
            )
          : null;
        return { delivery, mail };
      });
    },

    /** Records a send the SMTP server accepted; false when this claim was superseded. */
    async complete(delivery: ClaimedDelivery, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(mailDeliveries)
          .set({ status: "SENT", sentAt: now, lockedUntil: null, lastError: null })
          .where(
            and(
              eq(mailDeliveries.id, delivery.id),
              eq(mailDeliveries.status, "SENDING"),
              eq(mailDeliveries.attempts, delivery.attempts),
            ),
          )
          .returning({ id: mailDeliveries.id });
        if (!row) return false;
        await bump(tx, delivery.campaignId, "sent");
        await finishIfDone(tx, [delivery.campaignId], now);
        return true;
      });
    },

    /** Records a failed try: PENDING again after `retryInMs`, or FAILED on the last attempt. */
    async fail(
      delivery: ClaimedDelivery,
      error: string,
      now: Date,
      retryInMs: number,
    ): Promise<"retry" | "failed" | null> {
      const last = delivery.attempts >= MAX_ATTEMPTS;
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(mailDeliveries)
          .set(
            last
              ? { status: "FAILED", lockedUntil: null, lastError: error.slice(0, 500) }
              : {
                  status: "PENDING",
                  lockedUntil: new Date(now.getTime() + retryInMs),
                  lastError: error.slice(0, 500),
                },
          )
          .where(
            and(
              eq(mailDeliveries.id, delivery.id),
              eq(mailDeliveries.status, "SENDING"),
              eq(mailDeliveries.attempts, delivery.attempts),
            ),
          )
          .returning({ id: mailDeliveries.id });
        if (!row) return null;
        if (!last) return "retry";
        await bump(tx, delivery.campaignId, "failed");
        await finishIfDone(tx, [delivery.campaignId], now);
        return "failed";
      });
    },
  };
}
export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
