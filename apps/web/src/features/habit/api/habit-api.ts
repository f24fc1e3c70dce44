import type {
  HabitSettingsBody,
  HabitSummary,
  StudySessionBody,
  StudySessionResponse,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";
import { refusedForGood } from "@/lib/outbox";
import { resumeOnline } from "@/lib/session";
import { flushSessions, keepSession } from "../lib/session-queue";

/** The daily habit's query, shared by the dashboard card and the mail preferences page. */
export const habitKeys = { summary: ["habit", "summary"] as const };

export const habitSummaryQuery = queryOptions({
  queryKey: habitKeys.summary,
  queryFn: ({ signal }) =>
    api<{ data: HabitSummary }>("/v1/habit", { signal, silent: true }).then((r) => r.data),
});

function updateHabitSettings(body: HabitSettingsBody) {
  return api<{ data: HabitSummary }>("/v1/habit/settings", { method: "PUT", body, silent: true }).then(
    (r) => r.data,
  );
}

/** The browser's time zone (IANA name), or null when it cannot tell. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Saves the study reminder's settings; the answer is the new summary, put in its query. */
export function useSaveHabitSettings(config: MutationConfig<HabitSummary, HabitSettingsBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateHabitSettings,
    onSuccess: (summary, ...rest) => {
      queryClient.setQueryData(habitKeys.summary, summary);
      config.onSuccess?.(summary, ...rest);
    },
  });
}

function postStudySession(body: StudySessionBody) {
  return api<StudySessionResponse>("/v1/habit/sessions", { method: "POST", body, silent: true }).then(
    (r) => r.data,
  );
}

/**
 * Finished review or exercise sessions (issue 23's exercises send theirs here too): `record`
 * sends one and answers the new summary (streak, study day), or null when it waits for the
 * network (kept in this browser, sent when the connection returns; its id counts it once).
 */
export function useStudySessions(userId: string) {
  const queryClient = useQueryClient();
  const send = useCallback(
    async (body: StudySessionBody): Promise<HabitSummary | null> => {
      const data = await postStudySession(body);
      queryClient.setQueryData(habitKeys.summary, data.summary);
      return data.summary;
    },
    [queryClient],
  );
  const flush = useCallback(
    () =>
      flushSessions(localStorage, userId, (body) =>
        send(body).then(
          () => "done" as const,
          (error) => (refusedForGood(error) ? ("done" as const) : ("retry" as const)),
        ),
      ),
    [userId, send],
  );
  useEffect(() => {
    if (!userId) return;
    void flush();
    // back online, the session started offline is renewed first
    const online = () => void resumeOnline().then(flush);
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [userId, flush]);
  const record = useCallback(
    async (body: StudySessionBody): Promise<HabitSummary | null> => {
      try {
        return await send(body);
      } catch (error) {
        if (!refusedForGood(error)) keepSession(localStorage, userId, body);
        return null;
      }
    },
    [userId, send],
  );
  return { record };
}
