import type { Passkey } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

export const passkeysQuery = queryOptions({
  queryKey: ["user", "me", "passkeys"] as const,
  queryFn: ({ signal }) => api<{ data: Passkey[] }>("/v1/user/me/passkeys", { signal }).then((r) => r.data),
});

export const renamePasskey = (id: string, name: string) =>
  api<{ data: Passkey }>(`/v1/user/me/passkeys/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: { name },
    silent: true,
  });

export const removePasskey = (id: string) =>
  api<{ message: string }>(`/v1/user/me/passkeys/${encodeURIComponent(id)}`, {
    method: "DELETE",
    silent: true,
  });
