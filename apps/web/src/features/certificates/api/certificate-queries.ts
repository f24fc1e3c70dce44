import {
  type Certificate,
  type CertificateVerification,
  type MyCertificatesResponse,
  pickField,
} from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { Lang } from "@/lib/locale-path";

/**
 * Certificate reads shared by the dashboard, the course page and the certificate pages: one key
 * prefix, so that the lesson that finishes a course refreshes every view (features/downloads/api/offline/progress).
 */
export const certificateKeys = {
  all: ["certificates"] as const,
  mine: ["certificates", "mine"] as const,
  single: (id: string) => ["certificates", "single", id] as const,
  verify: (code: string) => ["certificates", "verify", code] as const,
  staff: (query: object) => ["certificates", "staff", query] as const,
};

/** `GET /v1/certificates/mine`: the signed-in learner's certificates, newest first. */
export const myCertificatesQuery = queryOptions({
  queryKey: certificateKeys.mine,
  queryFn: ({ signal }) =>
    api<MyCertificatesResponse>("/v1/certificates/mine", { signal, silent: true }).then(
      (r) => r.data.certificates,
    ),
});

/** `GET /v1/certificates/verify/{code}` (public): what the certificate says, valid or revoked. */
export function verifyCertificateQuery(code: string) {
  return queryOptions({
    queryKey: certificateKeys.verify(code),
    queryFn: ({ signal }) =>
      api<{ data: { certificate: CertificateVerification } }>(
        `/v1/certificates/verify/${encodeURIComponent(code)}`,
        { signal, silent: true },
      ).then((r) => r.data.certificate),
    retry: false,
  });
}

/** The course title in the reader's language, by the fallback rule (theirs, else English, else French). */
export function certificateCourse(c: Pick<Certificate, "course_title_fr" | "course_title_en">, lang: Lang) {
  return pickField(c, "course_title", lang);
}
