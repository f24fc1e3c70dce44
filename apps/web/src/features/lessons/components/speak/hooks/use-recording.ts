import { useCallback, useEffect, useState } from "react";
import { type LocalRecording, localRecordings } from "@/features/lessons/lib/recordings-store";

/**
 * The learner's recording of the line on this device (IndexedDB), and the same decoded for
 * playback, waveform and score. A recording made before is found again when the dialog opens.
 */
export function useRecording(key: string, decode: (blob: Blob) => Promise<AudioBuffer | null>) {
  const [recording, setRecording] = useState<{ saved: LocalRecording; sound: AudioBuffer | null } | null>(
    null,
  );

  /** Shows (and keeps on this device) a new recording; resolves with its decoded sound. */
  const show = useCallback(
    async (saved: LocalRecording, store = true) => {
      if (store) void localRecordings.put(saved).catch(() => undefined);
      const sound = await decode(saved.blob);
      setRecording({ saved, sound });
      return sound;
    },
    [decode],
  );

  useEffect(() => {
    let alive = true;
    void localRecordings
      .get(key)
      .catch(() => undefined)
      .then(async (found) => {
        if (!found) return;
        const sound = await decode(found.blob);
        if (alive) setRecording({ saved: found, sound });
      });
    return () => {
      alive = false;
    };
  }, [key, decode]);

  const forget = useCallback(async () => {
    await localRecordings.delete(key).catch(() => undefined);
    setRecording(null);
  }, [key]);

  return { recording: recording?.saved ?? null, sound: recording?.sound ?? null, show, forget };
}
