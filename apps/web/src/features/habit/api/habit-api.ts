import type { HabitSettingsBody, HabitSummary } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

/** The daily habit's query, shared by the dashboard card and the mail preferences page. */
export const habitKeys = { summary: ["habit", "summary"] as const };

export const habitSummaryQuery = queryOptions({
  queryKey: habitKeys.summary,
  queryFn: ({ signal }) =>
    api<{ data: HabitSummary }>("/v1/habit", { signal, silent: true }).then((r) => r.data),
});

export function updateHabitSettings(body: HabitSettingsBody) {
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
