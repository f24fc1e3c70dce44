import type { DeviceSession, EndedSessions } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";
import { profileKeys } from "./profile-keys";

interface Envelope<T> {
  message?: string;
  data: T;
}

/** Where the learner is signed in: their live sessions, this one first. */
export const sessionsQuery = queryOptions({
  queryKey: profileKeys.sessions,
  queryFn: ({ signal }) =>
    api<Envelope<DeviceSession[]>>("/v1/user/me/sessions", { signal }).then((r) => r.data),
});

const endSession = (id: string) =>
  api<{ message: string }>(`/v1/user/me/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });

const endOtherSessions = () =>
  api<Envelope<EndedSessions>>("/v1/user/me/sessions/end-others", { method: "POST" }).then((r) => r.data);

/** Ends one of the learner's other sessions, then the list is read again. */
export function useEndSession(config: MutationConfig<Awaited<ReturnType<typeof endSession>>, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: endSession,
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
    },
  });
}

/** Ends every session of the learner but this one, then the list is read again. */
export function useEndOtherSessions(config: MutationConfig<EndedSessions> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: endOtherSessions,
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
    },
  });
}
