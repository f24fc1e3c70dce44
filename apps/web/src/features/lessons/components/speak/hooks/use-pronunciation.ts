import { useEffect, useRef, useState } from "react";
import type { PronunciationResult } from "@/features/lessons/lib/pronunciation/compare";
import type {
  PronunciationReply,
  PronunciationRequest,
  PronunciationWarmUp,
} from "@/features/lessons/lib/pronunciation/pronunciation.worker";
import { segmentSamples } from "@/features/lessons/lib/waveform";
import type { SpeakLine } from "./use-line-audio";

type Analysis =
  | { state: "analysing"; sound: AudioBuffer }
  | { state: "done"; sound: AudioBuffer; result: PronunciationResult }
  | { state: "failed"; sound: AudioBuffer };

/**
 * The pronunciation score of the learner's recording against the line, computed in a Web Worker
 * (its own chunk, loaded with the first score) so that the dialog stays responsive; nothing leaves
 * the browser. Recomputed for each new recording; a late answer about an older one is dropped.
 */
export function usePronunciation(line: SpeakLine, original: AudioBuffer | null, sound: AudioBuffer | null) {
  const [analysis, setAnalysis] = useState<Analysis | null>(null);
  const workerRef = useRef<Worker | null>(null);
  const lastId = useRef(0);

  // started with the dialog and warmed up (compiled, tables built) while the learner listens and
  // speaks: the first score costs what the next ones do
  useEffect(() => {
    try {
      workerRef.current = new Worker(
        new URL("../../../lib/pronunciation/pronunciation.worker.ts", import.meta.url),
        {
          type: "module",
        },
      );
      const warmUp: PronunciationWarmUp = { warmUp: true };
      workerRef.current.postMessage(warmUp);
    } catch {
      workerRef.current = null;
    }
    return () => {
      workerRef.current?.terminate();
      workerRef.current = null;
    };
  }, []);

  useEffect(() => {
    if (!original || !sound) return;
    const id = ++lastId.current;
    const worker = workerRef.current;
    if (!worker) {
      setAnalysis({ state: "failed", sound });
      return;
    }
    setAnalysis({ state: "analysing", sound });
    worker.onmessage = (event: MessageEvent<PronunciationReply>) => {
      if (event.data.id === lastId.current) setAnalysis({ state: "done", sound, result: event.data.result });
    };
    worker.onerror = () => {
      if (id === lastId.current) setAnalysis({ state: "failed", sound });
    };
    // copies: the worker takes them over, the page keeps its own to play
    const model = segmentSamples(original, line.start, line.end).slice();
    const recording = sound.getChannelData(0).slice();
    const request: PronunciationRequest = {
      id,
      model,
      modelRate: original.sampleRate,
      recording,
      recordingRate: sound.sampleRate,
    };
    worker.postMessage(request, [model.buffer, recording.buffer]);
  }, [line.start, line.end, original, sound]);

  // an answer about another recording than the one shown is not shown
  return analysis && analysis.sound === sound ? analysis : null;
}
