import type { Recording, RecordingListResponse, RecordingResponse } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiFile } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";

const recordingKeys = {
  lesson: (lessonId: string) => ["recordings", lessonId] as const,
};

/** The recordings the learner kept on their account for a lesson's lines. */
export const lessonRecordingsQuery = (lessonId: string) =>
  queryOptions({
    queryKey: recordingKeys.lesson(lessonId),
    queryFn: ({ signal }) =>
      api<RecordingListResponse>("/v1/recordings", {
        query: { lesson_id: lessonId },
        signal,
        silent: true,
      }).then((r) => r.data.recordings),
  });

/** Uploads a recording of a line to the account (replacing the one kept before). */
function keepRecording(cueId: string, blob: Blob, mimeType: string): Promise<Recording> {
  const form = new FormData();
  form.append("cue_id", cueId);
  const ext = mimeType.includes("ogg") ? "ogg" : mimeType.includes("mp4") ? "m4a" : "webm";
  form.append("file", blob, `line.${ext}`);
  return api<RecordingResponse>("/v1/recordings", { method: "POST", body: form }).then(
    (r) => r.data.recording,
  );
}

function deleteKeptRecording(id: string): Promise<void> {
  return api<void>(`/v1/recordings/${id}`, { method: "DELETE" });
}

function keptRecordingAudio(id: string): Promise<Blob> {
  return apiFile(`/v1/recordings/${id}/audio`, { silent: true });
}

/** Keeps a recording made on this device on the account, then the lesson's kept recordings are read again. */
export function useKeepRecording(
  lessonId: string,
  cueId: string,
  config: MutationConfig<Recording, { blob: Blob; mimeType: string }> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ blob, mimeType }: { blob: Blob; mimeType: string }) =>
      keepRecording(cueId, blob, mimeType),
    onSuccess: (...args) => {
      config.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: recordingKeys.lesson(lessonId) });
    },
  });
}

/** Deletes a recording kept on the account, then the lesson's kept recordings are read again. */
export function useDeleteKeptRecording(lessonId: string, config: MutationConfig<void, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteKeptRecording,
    onSuccess: (...args) => {
      config.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: recordingKeys.lesson(lessonId) });
    },
  });
}

/** The recording kept on the account, fetched back to this device. */
export function useFromAccount(onFetched: (blob: Blob) => void) {
  return useMutation({ mutationFn: (id: string) => keptRecordingAudio(id), onSuccess: onFetched });
}
