import {
  type EmailTemplate,
  type EmailTemplateBody,
  type EmailTemplateListQuery,
  TRANSACTIONAL_SLUGS,
  type TransactionalSlug,
} from "@parlons/contract";
import { and, asc, desc, eq, ne } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { containing, pageOf } from "../../db/paginate";
import { emailTemplates } from "../../db/schema/mail";
import { conflict, isUniqueViolation, notFound } from "../../lib/errors";
import { builtInText, type TemplateTexts, TRANSACTIONAL_DEFAULTS } from "./transactional";

export type TemplateRow = typeof emailTemplates.$inferSelect;

const slugTaken = () => conflict("A template already uses this slug", "TEMPLATE_SLUG_TAKEN");

/** The six texts of a stored template or campaign, as the API answers them. */
export const textsOf = (
  row: Pick<TemplateRow, "subjectFr" | "subjectEn" | "bodyFr" | "bodyEn" | "subjectEs" | "bodyEs">,
) => ({
  subject_fr: row.subjectFr,
  subject_en: row.subjectEn,
  body_fr: row.bodyFr,
  body_en: row.bodyEn,
  subject_es: row.subjectEs,
  body_es: row.bodyEs,
});

function presentTemplate(row: TemplateRow): EmailTemplate {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    ...textsOf(row),
    active: row.active,
    transactional: (TRANSACTIONAL_SLUGS as readonly string[]).includes(row.slug),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const columns = (body: EmailTemplateBody) => ({
  slug: body.slug,
  name: body.name,
  subjectFr: body.subject_fr,
  subjectEn: body.subject_en,
  bodyFr: body.body_fr,
  bodyEn: body.body_en,
  // left out (a client that knows only French and English): the Spanish texts stay as they are
  ...(body.subject_es !== undefined && { subjectEs: body.subject_es }),
  ...(body.body_es !== undefined && { bodyEs: body.body_es }),
  active: body.active,
});

/** Mail templates (staff, mail.manage); also the texts of transactional mails. */
export function createMailTemplateService(db: Db) {
  async function get(id: string, tx: DbOrTx = db): Promise<TemplateRow> {
    const [row] = await tx.select().from(emailTemplates).where(eq(emailTemplates.id, id));
    if (!row) throw notFound("Template");
    return row;
  }

  return {
    get,

    async list(query: EmailTemplateListQuery) {
      const where = containing(query.search, [emailTemplates.name, emailTemplates.slug]);
      const { rows, pagination } = await pageOf(db, query, emailTemplates, where, [
        desc(emailTemplates.updatedAt),
        asc(emailTemplates.id),
      ]);
      return { templates: rows.map(presentTemplate), pagination };
    },

    async listActive() {
      const rows = await db
        .select()
        .from(emailTemplates)
        .where(eq(emailTemplates.active, true))
        .orderBy(asc(emailTemplates.name))
        .limit(200);
      return rows.map(presentTemplate);
    },

    async read(id: string) {
      return presentTemplate(await get(id));
    },

    async create(body: EmailTemplateBody) {
      const [row] = await db
        .insert(emailTemplates)
        .values(columns(body))
        .onConflictDoNothing({ target: emailTemplates.slug })
        .returning();
      if (!row) throw slugTaken();
      return presentTemplate(row);
    },

    async update(id: string, body: EmailTemplateBody) {
      await get(id);
      const [other] = await db
        .select({ id: emailTemplates.id })
        .from(emailTemplates)
        .where(and(eq(emailTemplates.slug, body.slug), ne(emailTemplates.id, id)));
      if (other) throw slugTaken();
      try {
        const [row] = await db
          .update(emailTemplates)
          .set({ ...columns(body), updatedAt: new Date() })
          .where(eq(emailTemplates.id, id))
          .returning();
        if (!row) throw notFound("Template");
        return presentTemplate(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw slugTaken();
        throw err;
      }
    },

    /** Campaigns made from it keep their copy of the texts (their template_id becomes null). */
    async remove(id: string) {
      const [row] = await db
        .delete(emailTemplates)
        .where(eq(emailTemplates.id, id))
        .returning({ id: emailTemplates.id });
      if (!row) throw notFound("Template");
      return row.id;
    },

    /** The texts of an active template with this slug, or null (transactional mails then use their defaults). */
    async findActive(slug: TransactionalSlug, tx: DbOrTx = db): Promise<TemplateTexts | null> {
      const [row] = await tx
        .select()
        .from(emailTemplates)
        .where(and(eq(emailTemplates.slug, slug), eq(emailTemplates.active, true)));
      return row ? { name: row.name, ...textsOf(row) } : null;
    },

    /**
     * Seeds the transactional templates from the built-in texts (Spanish included); existing ones
     * (maybe edited) are kept.
     */
    async seedTransactional(): Promise<void> {
      await db
        .insert(emailTemplates)
        .values(
          TRANSACTIONAL_SLUGS.map((slug) => {
            const t = TRANSACTIONAL_DEFAULTS[slug];
            return {
              slug,
              name: t.name,
              subjectFr: t.subject_fr,
              subjectEn: t.subject_en,
              bodyFr: t.body_fr,
              bodyEn: t.body_en,
              subjectEs: builtInText(slug, "es")?.subject ?? "",
              bodyEs: builtInText(slug, "es")?.body ?? "",
              active: true,
            };
          }),
        )
        .onConflictDoNothing({ target: emailTemplates.slug });
    },
  };
}
export type MailTemplateService = ReturnType<typeof createMailTemplateService>;
