import {
  HANDS_FREE_AUDIO_MODES,
  HANDS_FREE_ITEMS_HEADER,
  HANDS_FREE_MODE_HEADER,
  type HandsFreeAudioMode,
  type HandsFreeGradesBody,
  type HandsFreeGradesResponse,
  type HandsFreeKind,
  type HandsFreePlanResponse,
  type Locale,
} from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { localMidnight } from "@/features/review/api/review-queries";
import { api, apiDownload } from "@/lib/api";

export const handsFreeKeys = {
  all: ["hands-free"] as const,
  plan: (kinds: HandsFreeKind[], lang: Locale) => ["hands-free", "plan", kinds.join(","), lang] as const,
};

/** The day's hands-free session, read once per visit (grades must not reshuffle it). */
export function handsFreePlanQuery(kinds: HandsFreeKind[], lang: Locale) {
  return queryOptions({
    queryKey: handsFreeKeys.plan(kinds, lang),
    queryFn: ({ signal }) =>
      api<HandsFreePlanResponse>("/v1/practice/hands-free", {
        query: { limit: 20, day_start: localMidnight(), kinds: kinds.join(","), lang },
        signal,
      }).then((r) => r.data),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/**
 * `POST /v1/practice/hands-free/grades`, a session's grades as the page queued them (`answered_at`
 * when it ended): the same grade ids sent again change nothing. The day is the learner's as they send.
 */
export function sendHandsFreeGrades(body: HandsFreeGradesBody) {
  return api<HandsFreeGradesResponse>("/v1/practice/hands-free/grades", {
    method: "POST",
    body: { ...body, day_start: localMidnight() },
    silent: true,
  }).then((r) => r.data);
}

/** Rendering the session on the server takes a while on a busy one: the download may take this long. */
const DOWNLOAD_TIMEOUT_MS = 180_000;

/**
 * `GET /v1/practice/hands-free/audio.mp3`: today's session as one MP3 (rendered by the server,
 * kept for the day), with how it was rendered (recall prompts spoken, or echoes only) and how many
 * items it holds.
 */
export async function downloadHandsFreeSession(
  kinds: HandsFreeKind[],
  lang: Locale,
  onProgress: (fraction: number | null) => void,
) {
  const { blob, headers } = await apiDownload("/v1/practice/hands-free/audio.mp3", {
    query: { limit: 20, day_start: localMidnight(), kinds: kinds.join(","), lang },
    silent: true,
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
    onProgress,
  });
  const mode = headers.get(HANDS_FREE_MODE_HEADER);
  return {
    blob,
    mode: HANDS_FREE_AUDIO_MODES.find((m) => m === mode) ?? ("echo_only" satisfies HandsFreeAudioMode),
    items: Number(headers.get(HANDS_FREE_ITEMS_HEADER)) || 0,
  };
}
