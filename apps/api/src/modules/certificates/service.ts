import { randomInt } from "node:crypto";
import {
  CERTIFICATE_ALPHABET,
  type Certificate,
  type CertificateListQuery,
  type CertificateVerification,
  normalizeCertificateCode,
  type StaffCertificate,
} from "@parlons/contract";
import { and, desc, eq, isNotNull, isNull, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { containing, pageOf } from "../../db/paginate";
import { certificates } from "../../db/schema/certificates";
import { notFound } from "../../lib/errors";
import type { AuditService } from "../audit/service";
import type { LessonService } from "../lessons/service";
import type { UserService } from "../users/service";

export type CertificateRow = typeof certificates.$inferSelect;

/** A fresh code: 8 random Crockford base-32 characters (40 bits), shown as two groups of four. */
export function newCertificateCode(): string {
  let raw = "";
  for (let i = 0; i < 8; i++) raw += CERTIFICATE_ALPHABET[randomInt(CERTIFICATE_ALPHABET.length)];
  return `${raw.slice(0, 4)}-${raw.slice(4)}`;
}

/** The name printed on a certificate: the profile's, else the part of the e-mail before the @. */
function nameOnCertificate(user: { fullName: string | null; email: string }): string {
  const name = (user.fullName ?? "").trim();
  return name || (user.email.split("@")[0] ?? "");
}

export function presentCertificate(row: CertificateRow): Certificate {
  return {
    id: row.id,
    code: row.code,
    learner_name: row.learnerName,
    course_id: row.courseId,
    course_title_fr: row.courseTitleFr,
    course_title_en: row.courseTitleEn,
    issued_at: row.issuedAt.toISOString(),
    status: row.revokedAt ? "revoked" : "valid",
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

function presentStaff(row: CertificateRow): StaffCertificate {
  return { ...presentCertificate(row), user_id: row.userId, revoke_reason: row.revokeReason };
}

/**
 * Certificates of completion. Issued once per learner and course: the unique index on
 * (user, course) makes the insert of a second one a no-op, so concurrent "done" calls for the
 * last lessons give one certificate whichever of them sees the course complete.
 */
export function createCertificateService(deps: {
  db: Db;
  users: Pick<UserService, "findById">;
  courses: { get(id: string): Promise<{ titleFr: string; titleEn: string }> };
  lessons: Pick<LessonService, "completion">;
  audit: Pick<AuditService, "record">;
}) {
  const { db } = deps;

  async function ofLearner(userId: string, courseId: string): Promise<CertificateRow | undefined> {
    const [row] = await db
      .select()
      .from(certificates)
      .where(and(eq(certificates.userId, userId), eq(certificates.courseId, courseId)));
    return row;
  }

  async function byId(id: string): Promise<CertificateRow> {
    const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
    if (!row) throw notFound("Certificate");
    return row;
  }

  return {
    /**
     * Issues the learner's certificate for the course when every active lesson of it is done
     * (and the course has at least one). Returns the certificate, issued now or before, or null.
     */
    async issueIfComplete(userId: string, courseId: string): Promise<CertificateRow | null> {
      const existing = await ofLearner(userId, courseId);
      if (existing) return existing;
      const { total, done } = await deps.lessons.completion(userId, courseId);
      if (total === 0 || done < total) return null;
      const [user, course] = await Promise.all([deps.users.findById(userId), deps.courses.get(courseId)]);
      if (!user) return null;
      // a code already taken (one chance in a trillion) gets another draw
      for (let attempt = 0; attempt < 5; attempt++) {
        const [row] = await db
          .insert(certificates)
          .values({
            code: newCertificateCode(),
            userId,
            courseId,
            learnerName: nameOnCertificate(user),
            courseTitleFr: course.titleFr,
            courseTitleEn: course.titleEn,
          })
          .onConflictDoNothing()
          .returning();
        if (row) return row;
        const raced = await ofLearner(userId, courseId);
        if (raced) return raced;
      }
      throw new Error("no free certificate code after 5 draws");
    },

    async get(id: string): Promise<CertificateRow> {
      return byId(id);
    },

    /** Who a certificate was issued to (the owner policy asks), or null when there is none. */
    async ownerOf(id: string): Promise<string | null> {
      const [row] = await db
        .select({ userId: certificates.userId })
        .from(certificates)
        .where(eq(certificates.id, id));
      return row?.userId ?? null;
    },

    /** The learner's certificates, newest first (revoked ones too: they say so). */
    async mine(userId: string): Promise<Certificate[]> {
      const rows = await db
        .select()
        .from(certificates)
        .where(eq(certificates.userId, userId))
        .orderBy(desc(certificates.issuedAt));
      return rows.map(presentCertificate);
    },

    /** The public check of a code: only what the certificate itself says. */
    async verify(input: string): Promise<CertificateVerification> {
      const code = normalizeCertificateCode(input);
      if (!code) throw notFound("Certificate");
      const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
      if (!row) throw notFound("Certificate");
      const c = presentCertificate(row);
      return {
        code: c.code,
        learner_name: c.learner_name,
        course_title_fr: c.course_title_fr,
        course_title_en: c.course_title_en,
        issued_at: c.issued_at,
        status: c.status,
        revoked_at: c.revoked_at,
      };
    },

    async list(query: CertificateListQuery) {
      const filters: SQL[] = [];
      if (query.status === "valid") filters.push(isNull(certificates.revokedAt));
      if (query.status === "revoked") filters.push(isNotNull(certificates.revokedAt));
      const match = containing(query.q, [
        certificates.code,
        certificates.learnerName,
        certificates.courseTitleFr,
        certificates.courseTitleEn,
      ]);
      if (match) filters.push(match);
      const where = filters.length ? and(...filters) : undefined;
      const { rows, pagination } = await pageOf(db, query, certificates, where, [
        desc(certificates.issuedAt),
        desc(certificates.id),
      ]);
      return { certificates: rows.map(presentStaff), pagination };
    },

    /** Revokes a certificate (once: revoking it again keeps the first date and reason). */
    async revoke(
      id: string,
      actor: { id: string; email: string },
      reason: string,
    ): Promise<StaffCertificate> {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(certificates).where(eq(certificates.id, id)).for("update");
        if (!before) throw notFound("Certificate");
        if (before.revokedAt) return presentStaff(before);
        const [after] = await tx
          .update(certificates)
          .set({ revokedAt: new Date(), revokedBy: actor.id, revokeReason: reason || null })
          .where(eq(certificates.id, id))
          .returning();
        if (!after) throw notFound("Certificate");
        await deps.audit.record(
          {
            actor,
            action: "certificates.revoke",
            target: { type: "certificate", id },
            before: { code: before.code, status: "valid" },
            after: { code: after.code, status: "revoked", reason: reason || null },
          },
          tx,
        );
        return presentStaff(after);
      });
    },
  };
}
