import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Records the learner with the microphone (nothing leaves the device): start, stop, and the
 * recording as an object URL to play. `supported` is false where the browser cannot record.
 */
export function useRecorder() {
  const supported = typeof MediaRecorder !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia);
  const recorder = useRef<MediaRecorder | null>(null);
  const [recording, setRecording] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  const start = useCallback(async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const chunks: Blob[] = [];
      const rec = new MediaRecorder(stream);
      rec.ondataavailable = (e) => chunks.push(e.data);
      rec.onstop = () => {
        for (const track of stream.getTracks()) track.stop();
        setUrl((old) => {
          if (old) URL.revokeObjectURL(old);
          return URL.createObjectURL(new Blob(chunks, { type: rec.mimeType }));
        });
        setRecording(false);
      };
      recorder.current = rec;
      rec.start();
      setRecording(true);
    } catch {
      setFailed(true);
    }
  }, []);

  const stop = useCallback(() => recorder.current?.stop(), []);

  useEffect(
    () => () => {
      if (recorder.current?.state === "recording") recorder.current.stop();
    },
    [],
  );
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  return { supported: supported && !failed, recording, url, start, stop };
}
