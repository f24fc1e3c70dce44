import { z } from "zod";
import { envelope, pagination } from "./common";
import { localeSchema } from "./locale-schema";

/**
 * Certificates of completion: issued once when a learner has done every lesson of a course.
 * The code is short (`K7QM-4XPD`, Crockford base-32 without I, L, O, U) and is the only thing a
 * verifier needs: `/c/{code}` on the web, `GET /v1/certificates/verify/{code}` on the API.
 */

export const CERTIFICATE_STATUSES = ["valid", "revoked"] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** A code as a person may type it: letters, digits and dashes, any case. */
export const certificateCodeParams = z.object({ code: z.string().min(1).max(32) });

/** A certificate as its learner (or staff) reads it. */
export const certificate = z.object({
  id: z.uuid(),
  code: z.string(),
  learner_name: z.string(),
  /** Null once the course was deleted: the titles stay as issued. */
  course_id: z.string().nullable(),
  course_title_fr: z.string(),
  course_title_en: z.string(),
  issued_at: z.string(),
  status: z.enum(CERTIFICATE_STATUSES),
  revoked_at: z.string().nullable(),
});
export type Certificate = z.infer<typeof certificate>;

export const certificateResponse = envelope(z.object({ certificate }));
export const myCertificatesResponse = envelope(z.object({ certificates: z.array(certificate) }));

/** What the public verification page shows: the certificate itself, nothing else about the learner. */
export const certificateVerification = z.object({
  code: z.string(),
  learner_name: z.string(),
  course_title_fr: z.string(),
  course_title_en: z.string(),
  issued_at: z.string(),
  status: z.enum(CERTIFICATE_STATUSES),
  revoked_at: z.string().nullable(),
});
export type CertificateVerification = z.infer<typeof certificateVerification>;
export const certificateVerificationResponse = envelope(z.object({ certificate: certificateVerification }));

/** `GET /v1/certificates/{id}/pdf?lang=`: the PDF in the asked language (French by default). */
export const certificatePdfQuery = z.object({ lang: localeSchema.optional() });

/** Staff list: newest first; `q` matches the code, the learner's name or the course title. */
export const certificateListQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  q: z.string().trim().max(100).optional(),
  status: z.enum(CERTIFICATE_STATUSES).optional(),
});
export type CertificateListQuery = z.infer<typeof certificateListQuery>;

export const staffCertificate = certificate.extend({
  user_id: z.string(),
  revoke_reason: z.string().nullable(),
});
export type StaffCertificate = z.infer<typeof staffCertificate>;
export const certificateListResponse = envelope(
  z.object({ certificates: z.array(staffCertificate), pagination }),
);

/** `POST /v1/certificates/{id}/revoke`: why, kept for staff (never shown on the public page). */
export const revokeCertificateBody = z.object({ reason: z.string().trim().max(500).default("") }).strict();
export type RevokeCertificateBody = z.infer<typeof revokeCertificateBody>;
export const staffCertificateResponse = envelope(z.object({ certificate: staffCertificate }));

/** Crockford base-32 (no I, L, O, U): what a code is made of. */
export const CERTIFICATE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A typed code in its stored form (`k7qm4xpd` → `K7QM-4XPD`), or null when it cannot be one. */
export function normalizeCertificateCode(input: string): string | null {
  const raw = input.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  if (raw.length !== 8) return null;
  for (const ch of raw) if (!CERTIFICATE_ALPHABET.includes(ch)) return null;
  return `${raw.slice(0, 4)}-${raw.slice(4)}`;
}

export type MyCertificatesResponse = z.infer<typeof myCertificatesResponse>;
export type CertificateResponse = z.infer<typeof certificateResponse>;
export type CertificateVerificationResponse = z.infer<typeof certificateVerificationResponse>;
export type CertificateListResponse = z.infer<typeof certificateListResponse>;
export type StaffCertificateResponse = z.infer<typeof staffCertificateResponse>;
