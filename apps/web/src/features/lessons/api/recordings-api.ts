import type { Recording, RecordingListResponse, RecordingResponse } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api, apiFile } from "@/lib/api";

export const recordingKeys = {
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
export function keepRecording(cueId: string, blob: Blob, mimeType: string): Promise<Recording> {
  const form = new FormData();
  form.append("cue_id", cueId);
  const ext = mimeType.includes("ogg") ? "ogg" : mimeType.includes("mp4") ? "m4a" : "webm";
  form.append("file", blob, `line.${ext}`);
  return api<RecordingResponse>("/v1/recordings", { method: "POST", body: form }).then(
    (r) => r.data.recording,
  );
}

export function deleteKeptRecording(id: string): Promise<void> {
  return api<void>(`/v1/recordings/${id}`, { method: "DELETE" });
}

export function keptRecordingAudio(id: string): Promise<Blob> {
  return apiFile(`/v1/recordings/${id}/audio`, { silent: true });
}
