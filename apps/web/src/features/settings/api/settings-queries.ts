import type { Setting, SettingResponse } from "@parlons/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { queryClient } from "@/lib/query-client";
import { store, stored } from "@/lib/storage";

/**
 * The public settings object (`GET /v1/settings`, spec §7), shared by the pages that read it
 * (contact address, signup) and the staff settings page that edits it. Signed-in users keep the
 * last copy in storage (spec §3 "setting data", cleared at logout) so a page shows it at once
 * while the fresh one loads.
 */
export const settingsQueryKey = ["settings"] as const;

export function fetchSettings(signal?: AbortSignal): Promise<Setting> {
  return api<SettingResponse>("/v1/settings", { signal, silent: true }).then((res) => res.data.setting);
}

const settingsQuery = queryOptions({
  queryKey: settingsQueryKey,
  queryFn: ({ signal }) => fetchSettings(signal),
  staleTime: 5 * 60_000,
});

const storedSettings = (): Setting | undefined => stored<Setting>("setting") ?? undefined;

/** The public settings; the stored copy stands in while they load. */
export function useSettings() {
  return useQuery({ ...settingsQuery, placeholderData: storedSettings });
}

/**
 * At start and after login (spec §7): fetch the settings unless a copy younger than `maxAgeMs`
 * is there (by default a few seconds: a restored session would otherwise load them twice in a row).
 */
export function loadSettings(maxAgeMs = 5_000): Promise<Setting | undefined> {
  return queryClient.fetchQuery({ ...settingsQuery, staleTime: maxAgeMs }).catch(() => undefined);
}

/** After staff saved the settings: every reader gets the new object without a refetch. */
export function settingsSaved(setting: Setting): void {
  store("setting", setting);
  queryClient.setQueryData(settingsQueryKey, setting);
}
