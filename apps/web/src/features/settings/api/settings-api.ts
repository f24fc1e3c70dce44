import type { SettingResponse, SettingUpdateBody } from "@parlons/contract";
import { queryOptions, useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { fetchSettings, settingsQueryKey, settingsSaved } from "./settings-queries";

/** The settings as staff edit them: always fresh from the server, never the stored copy. */
export const editableSettingsQuery = queryOptions({
  queryKey: settingsQueryKey,
  queryFn: ({ signal }) => fetchSettings(signal),
  staleTime: 0,
});

/** `POST /v1/settings` (settings.manage); the form shows the errors itself. */
export function useSaveSettings() {
  return useMutation({
    mutationFn: (body: SettingUpdateBody) =>
      api<SettingResponse>("/v1/settings", { method: "POST", body, silent: true }).then(
        (r) => r.data.setting,
      ),
    onSuccess: settingsSaved,
  });
}
