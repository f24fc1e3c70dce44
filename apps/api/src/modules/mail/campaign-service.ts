import type {
  CampaignCreateBody,
  CampaignPaginationBody,
  CampaignSendBody,
  MailAudience,
  MailCampaign,
} from "@parlons/contract";
import { and, count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { mailCampaigns, mailDeliveries } from "../../db/schema";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import type { AudienceQuery } from "../users/audience";
import type { Principal } from "../users/service";
import type { MailTemplateService } from "./template-service";

export type CampaignRow = typeof mailCampaigns.$inferSelect;

export function presentCampaign(row: CampaignRow): MailCampaign {
  return {
    id: row.id,
    template_id: row.templateId,
    subject_fr: row.subjectFr,
    subject_en: row.subjectEn,
    body_fr: row.bodyFr,
    body_en: row.bodyEn,
    audience: row.audience,
    status: row.status,
    total: row.total,
    sent: row.sent,
    failed: row.failed,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** The audience filters that matter for the query ("status" is always ACTIVE). */
const filterOf = (audience: MailAudience) => ({
  role: audience.role,
  plan: audience.plan,
  speak: audience.speak,
});

/**
 * Bulk mail campaigns (staff, mail.manage): a DRAFT holds a copy of the texts and the audience;
 * queueing it writes one delivery row per recipient, in one transaction, that the mail worker
 * (`jobs/mail-worker.ts`, through `deliveries.ts`) then sends.
 */
export function createCampaignService(deps: {
  db: Db;
  audience: AudienceQuery;
  templates: MailTemplateService;
}) {
  const { db, audience, templates } = deps;

  async function get(id: string, tx: DbOrTx = db): Promise<CampaignRow> {
    const [row] = await tx.select().from(mailCampaigns).where(eq(mailCampaigns.id, id));
    if (!row) throw notFound("Campaign");
    return row;
  }

  async function insertDraft(actor: Principal, body: CampaignCreateBody, tx: DbOrTx): Promise<CampaignRow> {
    let texts: { subjectFr: string; subjectEn: string; bodyFr: string; bodyEn: string };
    if (body.template_id) {
      const template = await templates.get(body.template_id, tx).catch(() => {
        throw validationFailed({ template_id: ["Unknown template"] });
      });
      texts = {
        subjectFr: template.subjectFr,
        subjectEn: template.subjectEn,
        bodyFr: template.bodyFr,
        bodyEn: template.bodyEn,
      };
    } else {
      texts = {
        subjectFr: body.subject_fr ?? "",
        subjectEn: body.subject_en ?? "",
        bodyFr: body.body_fr ?? "",
        bodyEn: body.body_en ?? "",
      };
    }
    const [row] = await tx
      .insert(mailCampaigns)
      .values({
        templateId: body.template_id ?? null,
        ...texts,
        audience: { ...body.audience, status: "ACTIVE" },
        status: "DRAFT",
        createdBy: actor.id,
      })
      .returning();
    if (!row) throw new Error("campaign insert failed");
    return row;
  }

  /**
   * DRAFT → QUEUED with one delivery per recipient. The campaign row is locked first, so two
   * concurrent sends of the same campaign queue it once (the second gets 409); the unique
   * (campaign, user) makes a replayed insert add nothing.
   */
  async function queue(tx: DbOrTx, campaignId: string): Promise<CampaignRow> {
    const [campaign] = await tx
      .select()
      .from(mailCampaigns)
      .where(eq(mailCampaigns.id, campaignId))
      .for("update");
    if (!campaign) throw notFound("Campaign");
    if (campaign.status !== "DRAFT") {
      throw conflict(`This campaign is already ${campaign.status.toLowerCase()}`, "CAMPAIGN_ALREADY_QUEUED");
    }
    for await (const recipients of audience.recipients(filterOf(campaign.audience), tx)) {
      await tx
        .insert(mailDeliveries)
        .values(
          recipients.map((r) => ({
            campaignId,
            userId: r.id,
            email: r.email,
            lang: r.speak,
            variables: { full_name: r.fullName, plan_name: r.planName },
          })),
        )
        .onConflictDoNothing({ target: [mailDeliveries.campaignId, mailDeliveries.userId] });
    }
    const [queued] = await tx
      .select({ n: count() })
      .from(mailDeliveries)
      .where(eq(mailDeliveries.campaignId, campaignId));
    const total = queued?.n ?? 0;
    if (total === 0) throw validationFailed({ audience: ["No active user matches this audience"] });
    const [row] = await tx
      .update(mailCampaigns)
      .set({ status: "QUEUED", total })
      .where(eq(mailCampaigns.id, campaignId))
      .returning();
    if (!row) throw notFound("Campaign");
    return row;
  }

  return {
    async count(target: MailAudience): Promise<number> {
      return audience.count(filterOf(target));
    },

    async create(actor: Principal, body: CampaignCreateBody): Promise<MailCampaign> {
      return presentCampaign(await insertDraft(actor, body, db));
    },

    /** Queues a DRAFT, or creates and queues a campaign in one transaction. */
    async send(actor: Principal, body: CampaignSendBody): Promise<MailCampaign> {
      const row = await db.transaction(async (tx) => {
        if (body.campaign_id) return queue(tx, body.campaign_id);
        if (!body.audience) throw validationFailed({ audience: ["Required"] });
        const draft = await insertDraft(actor, { ...body, audience: body.audience }, tx);
        return queue(tx, draft.id);
      });
      return presentCampaign(row);
    },

    async read(id: string): Promise<MailCampaign> {
      return presentCampaign(await get(id));
    },

    /** Latest first. */
    async list(query: CampaignPaginationBody) {
      const { page, pageSize, filters } = query;
      const conditions: (SQL | undefined)[] = [];
      if (filters.status) conditions.push(eq(mailCampaigns.status, filters.status));
      if (filters.search) {
        const words = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        conditions.push(or(ilike(mailCampaigns.subjectFr, words), ilike(mailCampaigns.subjectEn, words)));
      }
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(mailCampaigns)
          .where(where)
          .orderBy(desc(mailCampaigns.createdAt), desc(mailCampaigns.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ n: count() }).from(mailCampaigns).where(where),
      ]);
      return { campaigns: rows.map(presentCampaign), pagination: { page, pageSize, total: total?.n ?? 0 } };
    },

    /** Deliveries of a campaign by status (tests and operations). */
    async deliveryCounts(campaignId: string) {
      const rows = await db
        .select({ status: mailDeliveries.status, n: count() })
        .from(mailDeliveries)
        .where(eq(mailDeliveries.campaignId, campaignId))
        .groupBy(mailDeliveries.status);
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Partial<Record<string, number>>;
    },
  };
}
export type CampaignService = ReturnType<typeof createCampaignService>;
