import type { MailPreferences, MailPreferencesBody, UnsubscribeStatus } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";

/** Mail preferences (signed in) and the unsubscribe link's page (no sign-in: the token is the credential). */
const subscriptionKeys = {
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

function updateMailPreferences(body: MailPreferencesBody) {
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

function unsubscribe(token: string) {
  return api<{ data: UnsubscribeStatus }>(linkUrl(token), {
    method: "POST",
    silent: true,
    noRefresh: true,
  }).then((r) => r.data);
}

function resubscribe(token: string) {
  return api<{ data: UnsubscribeStatus }>(`${linkUrl(token)}/resubscribe`, {
    method: "POST",
    silent: true,
    noRefresh: true,
  }).then((r) => r.data);
}

/** Saves the learner's mail preferences; the answer is put in their query. */
export function useSaveMailPreferences(config: MutationConfig<MailPreferences, MailPreferencesBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateMailPreferences,
    onSuccess: (preferences, ...rest) => {
      queryClient.setQueryData(subscriptionKeys.preferences, preferences);
      config.onSuccess?.(preferences, ...rest);
    },
  });
}

/** Unsubscribes (false) or subscribes again (true) through a mailed link; the link's status is the answer. */
export function useChangeSubscription(
  token: string,
  config: MutationConfig<UnsubscribeStatus, boolean> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (subscribe: boolean) => (subscribe ? resubscribe(token) : unsubscribe(token)),
    onSuccess: (status, ...rest) => {
      queryClient.setQueryData(subscriptionKeys.link(token), status);
      config.onSuccess?.(status, ...rest);
    },
  });
}
