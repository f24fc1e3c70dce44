import type { HabitSettingsBody, HabitSummary } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";

/** The daily habit's query, shared by the dashboard card and the mail preferences page. */
const habitKeys = { summary: ["habit", "summary"] as const };

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
