import {
  COLLECTION_LIMITS,
  type CreatePlanBody,
  type Plan,
  type PlanTranslations,
  type UpdatePlanBody,
} from "@parlons/contract";
import { asc, count, eq, inArray, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { planCourses, plans } from "../../db/schema/plans";
import type { PaymentProviders } from "../../integrations/payments";
import { conflict, limitReached, notFound, validationFailed } from "../../lib/errors";
import { translatedFields, withTranslations } from "../../lib/naming";

const PLAN_TEXTS = ["name", "description"] as const;
/** A body's `name_es`, `features_es`… written over the stored translations (undefined: none given). */
const planTranslations = (stored: PlanTranslations, body: object) =>
  withTranslations(stored, body, [...PLAN_TEXTS, "features"]);

/** A plan's row with the courses it opens (empty for a plan of every course). */
export type PlanRow = typeof plans.$inferSelect & { courseIds: string[] };

export function presentPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    name_fr: row.nameFr,
    description_en: row.descriptionEn,
    description_fr: row.descriptionFr,
    features_en: row.featuresEn,
    features_fr: row.featuresFr,
    ...translatedFields(row.translations, PLAN_TEXTS, ""),
    ...translatedFields(row.translations, ["features"] as const, [] as string[]),
    amount: row.amount,
    currency: row.currency,
    interval: row.interval,
    active: row.active,
    is_default: row.isDefault,
    premium: row.amount > 0,
    position: row.position,
    scope: row.scope,
    course_ids: row.scope === "courses" ? row.courseIds : [],
    trial_days: row.trialDays,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const order = [asc(plans.position), asc(plans.amount), asc(plans.createdAt)];

/** A foreign key still points at the row (PostgreSQL 23503), whichever driver wraps the error. */
function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23503") return true;
  }
  return false;
}

/** The plan rows with the courses each opens (one query for any number of plans). */
async function withCourses(tx: DbOrTx, rows: (typeof plans.$inferSelect)[]): Promise<PlanRow[]> {
  const scoped = rows.filter((r) => r.scope === "courses").map((r) => r.id);
  const links = scoped.length
    ? await tx
        .select({ planId: planCourses.planId, courseId: planCourses.courseId })
        .from(planCourses)
        .where(inArray(planCourses.planId, scoped))
        .orderBy(asc(planCourses.courseId))
    : [];
  const byPlan = new Map<string, string[]>();
  for (const l of links) byPlan.set(l.planId, [...(byPlan.get(l.planId) ?? []), l.courseId]);
  return rows.map((r) => ({ ...r, courseIds: byPlan.get(r.id) ?? [] }));
}

/** A plan of scope "courses" names at least one course, a plan of every course none (422). */
function checkCourses(scope: PlanRow["scope"], ids: readonly string[]): string[] {
  const unique = [...new Set(ids)];
  if (scope === "all") {
    if (unique.length) throw validationFailed({ course_ids: ["A plan of every course names no course"] });
    return [];
  }
  if (!unique.length) throw validationFailed({ course_ids: ["A plan of chosen courses names at least one"] });
  return unique;
}

/**
 * Replaces the courses a plan opens. A course that does not exist is refused by the foreign key
 * (plans does not read the courses table): 422 on `course_ids`, and the transaction rolls back.
 */
async function setCourses(tx: DbOrTx, planId: string, ids: readonly string[]): Promise<void> {
  await tx.delete(planCourses).where(eq(planCourses.planId, planId));
  if (!ids.length) return;
  try {
    await tx.insert(planCourses).values(ids.map((courseId) => ({ planId, courseId })));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw validationFailed({ course_ids: ["Unknown course"] });
    throw error;
  }
}

export function createPlanService(deps: { db: Db; providers: PaymentProviders }) {
  const { db, providers } = deps;

  async function get(id: string, tx: DbOrTx = db): Promise<PlanRow> {
    const [row] = await tx.select().from(plans).where(eq(plans.id, id));
    if (!row) throw notFound("Plan");
    const [withIds] = await withCourses(tx, [row]);
    return withIds ?? { ...row, courseIds: [] };
  }

  /**
   * The provider's billing plan for this price. PayPal plans cannot change price: a new price
   * means a new PayPal plan (subscribers of the old one keep theirs). Called before anything is
   * written, so a provider failure (502) leaves our data as it was.
   */
  async function billingPlanFor(p: {
    name: string;
    descriptionEn: string;
    amount: number;
    currency: string;
    interval: PlanRow["interval"];
    paypalProductId: string | null;
    /** With free days: the billing plan that starts with them (PayPal's TRIAL cycle). */
    trialDays?: number;
  }) {
    if (p.amount <= 0 || p.interval === "once") return null;
    return providers.active.createBillingPlan({
      name: p.name,
      description: p.descriptionEn,
      amountCents: p.amount,
      currency: p.currency,
      interval: p.interval,
      productId: p.paypalProductId,
      ...(p.trialDays && { trialDays: p.trialDays }),
    });
  }

  /** The plans where `where` holds (all without it), in order, with their courses. */
  const listWhere = async (where: SQL | undefined) =>
    withCourses(
      db,
      await db
        .select()
        .from(plans)
        .where(where)
        .orderBy(...order),
    );

  return {
    get,

    listAll: (): Promise<PlanRow[]> => listWhere(undefined),

    async listActive(): Promise<PlanRow[]> {
      return listWhere(eq(plans.active, true));
    },

    async create(body: CreatePlanBody): Promise<PlanRow> {
      // checked before the provider's billing plan is made (a refused plan leaves nothing there)
      const [held] = await db.select({ n: count() }).from(plans);
      if ((held?.n ?? 0) >= COLLECTION_LIMITS.plans)
        throw limitReached("The plan list", COLLECTION_LIMITS.plans);
      const courseIds = checkCourses(body.scope, body.course_ids);
      const billing = await billingPlanFor({
        name: body.name,
        descriptionEn: body.description_en,
        amount: body.amount,
        currency: body.currency,
        interval: body.interval,
        paypalProductId: null,
      });
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(plans)
          .values({
            name: body.name,
            nameFr: body.name_fr,
            descriptionEn: body.description_en,
            descriptionFr: body.description_fr,
            featuresEn: body.features_en,
            featuresFr: body.features_fr,
            translations: planTranslations({}, body) ?? {},
            amount: body.amount,
            currency: body.currency,
            interval: body.interval,
            active: body.active,
            position: body.position,
            scope: body.scope,
            trialDays: body.trial_days,
            paypalProductId: billing?.productId ?? null,
            paypalPlanId: billing?.planId ?? null,
          })
          .returning();
        if (!inserted) throw new Error("plan insert returned nothing");
        await setCourses(tx, inserted.id, courseIds);
        return inserted;
      });
      return { ...row, courseIds };
    },

    async update(id: string, body: UpdatePlanBody): Promise<PlanRow> {
      const current = await get(id);
      const next = {
        name: body.name ?? current.name,
        nameFr: body.name_fr ?? current.nameFr,
        descriptionEn: body.description_en ?? current.descriptionEn,
        descriptionFr: body.description_fr ?? current.descriptionFr,
        featuresEn: body.features_en ?? current.featuresEn,
        featuresFr: body.features_fr ?? current.featuresFr,
        translations: planTranslations(current.translations, body) ?? current.translations,
        amount: body.amount ?? current.amount,
        currency: body.currency ?? current.currency,
        interval: body.interval ?? current.interval,
        active: body.active ?? current.active,
        position: body.position ?? current.position,
        scope: body.scope ?? current.scope,
        trialDays: body.trial_days ?? current.trialDays,
      };
      // a change of scope without a list means the list that goes with it: none for every course
      const courseIds = checkCourses(
        next.scope,
        body.course_ids ?? (next.scope === current.scope ? current.courseIds : []),
      );
      if (current.isDefault && next.amount > 0) throw conflict("The default free plan cannot become premium");
      if (current.isDefault && !next.active) throw conflict("The default free plan cannot be deactivated");
      if (next.amount > 0 && next.interval === "once" && next.scope === "all")
        throw validationFailed({
          interval: [
            "A paid plan of every course is billed by month or year (only chosen courses are sold once)",
          ],
        });
      const repriced =
        next.amount !== current.amount ||
        next.currency !== current.currency ||
        next.interval !== current.interval;
      const needsBillingPlan =
        next.amount > 0 && providers.active.name === "paypal" && (repriced || !current.paypalPlanId);
      const billing = needsBillingPlan
        ? await billingPlanFor({ ...next, trialDays: 0, paypalProductId: current.paypalProductId })
        : null;
      if (next.trialDays > 0 && (next.interval === "once" || next.amount <= 0))
        throw validationFailed({
          trial_days: ["Only a paid plan billed by month or year starts with free days"],
        });
      // the PayPal plan with the trial is made again on first need when the price or the days change
      const trialStale = repriced || next.trialDays !== current.trialDays;
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(plans)
          .set({
            ...next,
            ...(billing && { paypalProductId: billing.productId, paypalPlanId: billing.planId }),
            ...(trialStale && { paypalTrialPlanId: null }),
            updatedAt: new Date(),
          })
          .where(eq(plans.id, id))
          .returning();
        if (!updated) throw notFound("Plan");
        await setCourses(tx, id, courseIds);
        return updated;
      });
      return { ...row, courseIds };
    },

    /** Deletes a plan nobody ever used; a plan with subscribers (or users on it) is only deactivated. */
    async remove(id: string): Promise<{ deleted: boolean; plan: PlanRow }> {
      const current = await get(id);
      if (current.isDefault) throw conflict("The default free plan cannot be deleted");
      // customer plans and users reference the plan: while any does, the delete is refused
      // by the foreign keys and the plan is deactivated instead
      try {
        await db.delete(plans).where(eq(plans.id, id));
        return { deleted: true, plan: current };
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
      }
      const [row] = await db
        .update(plans)
        .set({ active: false, updatedAt: new Date() })
        .where(eq(plans.id, id))
        .returning();
      return { deleted: false, plan: row ? { ...row, courseIds: current.courseIds } : current };
    },

    /**
     * The provider plan a new subscription to this plan uses, created on first need (e.g. after
     * switching to PayPal). `trial`: the one that starts with the plan's free days.
     */
    async providerPlanIdOf(plan: PlanRow, trial = false): Promise<string | null> {
      if (providers.active.name !== "paypal") return null;
      const withTrial = trial && plan.trialDays > 0;
      const kept = withTrial ? plan.paypalTrialPlanId : plan.paypalPlanId;
      if (kept) return kept;
      const made = await billingPlanFor({ ...plan, trialDays: withTrial ? plan.trialDays : 0 });
      if (!made) return null;
      await db
        .update(plans)
        .set({
          paypalProductId: made.productId,
          ...(withTrial ? { paypalTrialPlanId: made.planId } : { paypalPlanId: made.planId }),
          updatedAt: new Date(),
        })
        .where(eq(plans.id, plan.id));
      return made.planId;
    },
  };
}

export type PlanService = ReturnType<typeof createPlanService>;
