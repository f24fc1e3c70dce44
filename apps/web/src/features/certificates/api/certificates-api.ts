import type {
  Certificate,
  CertificateListQuery,
  CertificateListResponse,
  CertificateResponse,
  Locale,
  StaffCertificateResponse,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiFile } from "@/lib/api";
import { saveFile } from "@/lib/download";
import type { MutationConfig } from "@/lib/mutation";
import { certificateKeys } from "./certificate-queries";

/** `GET /v1/certificates/{id}`: the learner's certificate (or any, for staff). */
export function certificateQuery(id: string) {
  return queryOptions({
    queryKey: certificateKeys.single(id),
    queryFn: ({ signal }) =>
      api<CertificateResponse>(`/v1/certificates/${encodeURIComponent(id)}`, { signal, silent: true }).then(
        (r) => r.data.certificate,
      ),
    retry: false,
  });
}

/** Saves the certificate's PDF, made by the server in `lang`. */
export async function downloadCertificatePdf(certificate: Pick<Certificate, "id" | "code">, lang: Locale) {
  const file = await apiFile(`/v1/certificates/${encodeURIComponent(certificate.id)}/pdf`, {
    query: { lang },
  });
  saveFile(`certificate-${certificate.code}.pdf`, file);
}

/** `GET /v1/certificates` (certificates.manage). */
export function certificateListQuery(query: Partial<CertificateListQuery>) {
  return queryOptions({
    queryKey: certificateKeys.staff(query),
    queryFn: ({ signal }) =>
      api<CertificateListResponse>("/v1/certificates", { query: { ...query }, signal }).then((r) => r.data),
  });
}

/** `POST /v1/certificates/{id}/revoke` (certificates.manage). */
function revokeCertificate(id: string, reason: string) {
  return api<StaffCertificateResponse>(`/v1/certificates/${encodeURIComponent(id)}/revoke`, {
    method: "POST",
    body: { reason },
  }).then((r) => r.data.certificate);
}

/** Revokes a certificate, then every certificate view is read again. */
export function useRevokeCertificate(config: MutationConfig<Certificate, { id: string; why: string }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ id, why }) => revokeCertificate(id, why),
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: certificateKeys.all });
    },
  });
}
