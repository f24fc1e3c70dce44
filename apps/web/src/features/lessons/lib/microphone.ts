/** Why the microphone cannot be used, for the explanation the learner gets. */
export type MicProblem = "denied" | "missing" | "busy" | "unsupported";

/** The kind of problem behind a getUserMedia or MediaRecorder failure (DOMException names). */
export function micProblemOf(error: unknown): MicProblem {
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "NotAllowedError" || name === "PermissionDeniedError" || name === "SecurityError")
    return "denied";
  if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError")
    return "missing";
  if (name === "NotReadableError" || name === "TrackStartError" || name === "AbortError") return "busy";
  return "unsupported";
}

/** Whether this browser can record at all (a secure page with getUserMedia and MediaRecorder). */
export function canRecord(): boolean {
  return (
    typeof window !== "undefined" &&
    typeof window.MediaRecorder === "function" &&
    typeof navigator.mediaDevices?.getUserMedia === "function"
  );
}

/** The first recording format the browser supports (Opus in WebM or Ogg, else MP4), or its default. */
export function recordingMimeType(isSupported: (type: string) => boolean): string | undefined {
  return ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus", "audio/mp4"].find((type) =>
    isSupported(type),
  );
}

/** The recordings of one line on this device: per user, lesson and line. */
export function recordingKey(userId: string, lessonId: string, cueId: string): string {
  return `${userId}:${lessonId}:${cueId}`;
}
