import { MAX_RECORDING_SECONDS } from "@parlons/contract";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  canRecord,
  type MicProblem,
  micProblemOf,
  recordingMimeType,
} from "@/features/lessons/lib/microphone";

/**
 * The microphone: asked for first (a refusal is explained before the learner speaks for nothing),
 * then recorded with MediaRecorder up to MAX_RECORDING_SECONDS; `seconds` counts the recording.
 */
export function useMicrophone() {
  const [problem, setProblem] = useState<MicProblem | null>(null);
  const [seconds, setSeconds] = useState(0);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);

  const release = useCallback(() => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  useEffect(
    () => () => {
      // a recording cut short by closing the dialog is dropped (onstop sees another recorder)
      const recorder = recorderRef.current;
      recorderRef.current = null;
      if (recorder?.state === "recording") recorder.stop();
      release();
    },
    [release],
  );

  /** Opens the microphone; false (and `problem` says why) when it cannot be used. */
  const open = useCallback(async () => {
    setProblem(null);
    if (!canRecord()) {
      setProblem("unsupported");
      return false;
    }
    try {
      streamRef.current = await navigator.mediaDevices.getUserMedia({ audio: true });
      return true;
    } catch (error) {
      setProblem(micProblemOf(error));
      return false;
    }
  }, []);

  /**
   * Records the open microphone; `onDone` gets the recording when it stops (by `stop`, or at the
   * limit). False when the browser cannot record that stream.
   */
  const record = useCallback(
    (onDone: (blob: Blob, mimeType: string) => void) => {
      const stream = streamRef.current;
      if (!stream) return false;
      let recorder: MediaRecorder;
      try {
        const mimeType = recordingMimeType((type) => MediaRecorder.isTypeSupported(type));
        recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      } catch (error) {
        release();
        setProblem(micProblemOf(error));
        return false;
      }
      const chunks: Blob[] = [];
      const startedAt = Date.now();
      const timer = window.setInterval(() => {
        const elapsed = Math.floor((Date.now() - startedAt) / 1000);
        setSeconds(elapsed);
        if (elapsed >= MAX_RECORDING_SECONDS && recorder.state === "recording") recorder.stop();
      }, 250);
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      };
      recorder.onstop = () => {
        window.clearInterval(timer);
        release();
        if (recorderRef.current !== recorder) return;
        const mimeType = recorder.mimeType || chunks[0]?.type || "audio/webm";
        onDone(new Blob(chunks, { type: mimeType }), mimeType);
      };
      recorderRef.current = recorder;
      setSeconds(0);
      recorder.start();
      return true;
    },
    [release],
  );

  const stop = useCallback(() => {
    if (recorderRef.current?.state === "recording") recorderRef.current.stop();
  }, []);

  return { problem, seconds, open, record, stop, release };
}
