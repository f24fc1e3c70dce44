import type { CurrentUser, Speak } from "@parlons/contract";
import { api } from "@/lib/api";

export interface ProfileValues {
  full_name: string;
  gender: "m" | "f" | "other" | null;
  speak: Speak;
}

/** `PUT /v1/user/profile/{id}`; the response shape is not relied on: the caller reloads `/me`. */
export function updateProfile(id: string, body: ProfileValues) {
  return api<{ message?: string; data?: { data?: CurrentUser; user?: CurrentUser } }>(
    `/v1/user/profile/${encodeURIComponent(id)}`,
    { method: "PUT", body },
  );
}
