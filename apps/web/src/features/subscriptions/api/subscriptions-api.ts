import type { MailPreferences, MailPreferencesBody, UnsubscribeStatus } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

/** Mail preferences (signed in) and the unsubscribe link's page (no sign-in: the token is the credential). */
export const subscriptionKeys = {
  preferences: ["mail-preferences"] as const,
  link: (token: string) => ["unsubscribe", token] as const,
};

export const mailPreferencesQuery = queryOptions({
  queryKey: subscriptionKeys.preferences,
  queryFn: ({ signal }) =>
    api<{ data: MailPreferences }>("/v1/user/me/mail-preferences", { signal, silent: true }).then(
      (r) => r.data,
    ),
});

export function updateMailPreferences(body: MailPreferencesBody) {
  return api<{ data: MailPreferences }>("/v1/user/me/mail-preferences", {
    method: "PUT",
    body,
    silent: true,
  }).then((r) => r.data);
}

const linkUrl = (token: string) => `/v1/unsubscribe/${encodeURIComponent(token)}` as const;

export const unsubscribeStatusQuery = (token: string) =>
  queryOptions({
    queryKey: subscriptionKeys.link(token),
    queryFn: ({ signal }) =>
      api<{ data: UnsubscribeStatus }>(`${linkUrl(token)}/status`, {
        signal,
        silent: true,
        noRefresh: true,
      }).then((r) => r.data),
    retry: false,
  });

export function unsubscribe(token: string) {
  return api<{ data: UnsubscribeStatus }>(linkUrl(token), {
    method: "POST",
    silent: true,
    noRefresh: true,
  }).then((r) => r.data);
}

export function resubscribe(token: string) {
  return api<{ data: UnsubscribeStatus }>(`${linkUrl(token)}/resubscribe`, {
    method: "POST",
    silent: true,
    noRefresh: true,
  }).then((r) => r.data);
}
