import { createHash } from "node:crypto";
import {
  type CampaignCreateBody,
  type CampaignPaginationBody,
  type CampaignSendBody,
  type CampaignTestBody,
  type MailAudience,
  type MailCampaign,
  toLocale,
} from "@parlons/contract";
import { and, count, desc, eq, notExists, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { containing, pageOf } from "../../db/paginate";
import { mailCampaigns, mailDeliveries, mailUnsubscribes } from "../../db/schema/mail";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import { wordsOf } from "../../locales";
import type { AudienceFilter, AudienceQuery } from "../users/audience";
import type { Principal } from "../users/service";
import { type CampaignTexts, composeCampaignMail } from "./campaign-mail";
import type { MailOutbox } from "./outbox";
import type { MailPreferencesService } from "./preferences-service";
import { type MailTemplateService, textsOf } from "./template-service";

export type CampaignRow = typeof mailCampaigns.$inferSelect;

function presentCampaign(row: CampaignRow): MailCampaign {
  return {
    id: row.id,
    template_id: row.templateId,
    ...textsOf(row),
    audience: row.audience,
    status: row.status,
    total: row.total,
    sent: row.sent,
    failed: row.failed,
    unsubscribed: row.unsubscribed,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

const DAY_MS = 86_400_000;

/**
 * Bulk mail campaigns (staff, mail.manage): a DRAFT holds a copy of the texts and the audience;
 * queueing it writes one delivery row per recipient, in one transaction, that the mail worker
 * (`jobs/mail-worker.ts`, through `deliveries.ts`) then sends.
 */
export function createCampaignService(deps: {
  db: Db;
  audience: AudienceQuery;
  templates: MailTemplateService;
  preferences: Pick<MailPreferencesService, "unsubscribeParts">;
  outbox: Pick<MailOutbox, "enqueue">;
  courseExists: (id: string) => Promise<boolean>;
  publicUrl: string;
}) {
  const { db, audience, templates } = deps;

  /** An unknown course is a 422 on `audience.course_id` (checked before any transaction opens). */
  async function checkAudience(target: MailAudience | undefined) {
    if (target?.course_id && !(await deps.courseExists(target.course_id))) {
      throw validationFailed({ "audience.course_id": ["Unknown course"] });
    }
  }

  /**
   * The one audience query of a campaign, for the count preview and the queueing alike, so the
   * number staff see is the number queued: active accounts matching the filters, minus whoever
   * refused news (a campaign is news).
   */
  function recipientsOf(target: MailAudience, now: Date): AudienceFilter {
    return {
      role: target.role,
      plan: target.plan,
      speak: target.speak,
      courseId: target.course_id,
      inactiveSince: target.inactive_days
        ? new Date(now.getTime() - target.inactive_days * DAY_MS)
        : undefined,
      accepts: (userId) =>
        notExists(
          db
            .select({ userId: mailUnsubscribes.userId })
            .from(mailUnsubscribes)
            .where(and(eq(mailUnsubscribes.userId, userId), eq(mailUnsubscribes.kind, "news"))),
        ),
    };
  }

  /** The texts of a template (an unknown one is a 422 on `template_id`), or the ones given. */
  async function contentOf(
    body: CampaignCreateBody | CampaignTestBody,
    tx: DbOrTx = db,
  ): Promise<CampaignTexts> {
    if (body.template_id) {
      const template = await templates.get(body.template_id, tx).catch(() => {
        throw validationFailed({ template_id: ["Unknown template"] });
      });
      const { subjectFr, subjectEn, bodyFr, bodyEn, subjectEs, bodyEs } = template;
      return { subjectFr, subjectEn, bodyFr, bodyEn, subjectEs, bodyEs };
    }
    return {
      subjectFr: body.subject_fr ?? "",
      subjectEn: body.subject_en ?? "",
      bodyFr: body.body_fr ?? "",
      bodyEn: body.body_en ?? "",
      subjectEs: body.subject_es ?? "",
      bodyEs: body.body_es ?? "",
    };
  }

  /** The texts of a test: a campaign's, a template's, or the ones given. */
  async function textsOf(body: CampaignTestBody): Promise<CampaignTexts> {
    return body.campaign_id ? get(body.campaign_id) : contentOf(body);
  }

  async function get(id: string, tx: DbOrTx = db): Promise<CampaignRow> {
    const [row] = await tx.select().from(mailCampaigns).where(eq(mailCampaigns.id, id));
    if (!row) throw notFound("Campaign");
    return row;
  }

  async function insertDraft(actor: Principal, body: CampaignCreateBody, tx: DbOrTx): Promise<CampaignRow> {
    const texts = await contentOf(body, tx);
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
  async function queue(tx: DbOrTx, campaignId: string, now: Date): Promise<CampaignRow> {
    const [campaign] = await tx
      .select()
      .from(mailCampaigns)
      .where(eq(mailCampaigns.id, campaignId))
      .for("update");
    if (!campaign) throw notFound("Campaign");
    if (campaign.status !== "DRAFT") {
      throw conflict(`This campaign is already ${campaign.status.toLowerCase()}`, "CAMPAIGN_ALREADY_QUEUED");
    }
    for await (const recipients of audience.recipients(recipientsOf(campaign.audience, now), tx)) {
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
    /** How many people queueing this audience now would mail (the same query as `send`). */
    async count(target: MailAudience, now = new Date()): Promise<number> {
      await checkAudience(target);
      return audience.count(recipientsOf(target, now));
    },

    async create(actor: Principal, body: CampaignCreateBody): Promise<MailCampaign> {
      await checkAudience(body.audience);
      return presentCampaign(await insertDraft(actor, body, db));
    },

    /** Queues a DRAFT, or creates and queues a campaign in one transaction. */
    async send(actor: Principal, body: CampaignSendBody, now = new Date()): Promise<MailCampaign> {
      await checkAudience(body.campaign_id ? (await get(body.campaign_id)).audience : body.audience);
      const row = await db.transaction(async (tx) => {
        if (body.campaign_id) return queue(tx, body.campaign_id, now);
        if (!body.audience) throw validationFailed({ audience: ["Required"] });
        const draft = await insertDraft(actor, { ...body, audience: body.audience }, tx);
        return queue(tx, draft.id, now);
      });
      return presentCampaign(row);
    },

    /**
     * Sends the draft to the caller alone, in their language and with their own values, its
     * subject marked as a test, through the transactional outbox. No campaign row or figure
     * changes. The same test asked again within the minute (a double click) is queued once.
     */
    async test(actor: Principal, body: CampaignTestBody, now = new Date()) {
      const texts = await textsOf(body);
      const me = await audience.one(actor.id);
      if (!me) throw notFound("User");
      const mail = composeCampaignMail(
        texts,
        { email: me.email, lang: me.speak, variables: { full_name: me.fullName, plan_name: me.planName } },
        deps.publicUrl,
        deps.preferences.unsubscribeParts(me.id, "news", me.speak),
      );
      const subject = `${wordsOf(toLocale(me.speak)).words.testMailPrefix} ${mail.subject}`;
      const digest = createHash("sha256").update(`${subject}\n${mail.text}`).digest("base64url");
      const queued = await deps.outbox.enqueue({
        key: `campaign-test:${me.id}:${digest}:${Math.floor(now.getTime() / 60_000)}`,
        userId: me.id,
        to: me.email,
        subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
      return { to: me.email, subject, queued };
    },

    async read(id: string): Promise<MailCampaign> {
      return presentCampaign(await get(id));
    },

    /** Latest first. */
    async list(query: CampaignPaginationBody) {
      const { filters } = query;
      const conditions: (SQL | undefined)[] = [];
      if (filters.status) conditions.push(eq(mailCampaigns.status, filters.status));
      conditions.push(
        containing(filters.search, [
          mailCampaigns.subjectFr,
          mailCampaigns.subjectEn,
          mailCampaigns.subjectEs,
        ]),
      );
      const where = and(...conditions);
      const { rows, pagination } = await pageOf(db, query, mailCampaigns, where, [
        desc(mailCampaigns.createdAt),
        desc(mailCampaigns.id),
      ]);
      return { campaigns: rows.map(presentCampaign), pagination };
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
