import { comparePronunciation, type PronunciationResult } from "./compare";

/** One comparison asked of the worker: the line's samples and the recording's, each at its rate. */
export interface PronunciationRequest {
  id: number;
  model: Float32Array;
  modelRate: number;
  recording: Float32Array;
  recordingRate: number;
}

export interface PronunciationReply {
  id: number;
  result: PronunciationResult;
  /** time the comparison took in the worker */
  ms: number;
}

/** Asked when the dialog opens: compiles the analysis and builds its tables while the line plays. */
export interface PronunciationWarmUp {
  warmUp: true;
}

/** Half a second of a voiced sound (a 150 Hz pulse with a few harmonics): enough to compile every step. */
function warmUp() {
  const sound = Float32Array.from({ length: 8000 }, (_, i) => {
    const t = i / 16_000;
    return (
      0.3 * Math.sin(2 * Math.PI * 150 * t) +
      0.1 * Math.sin(2 * Math.PI * 450 * t) +
      0.05 * Math.sin(2 * Math.PI * 1200 * t)
    );
  });
  comparePronunciation(sound, 16_000, sound, 16_000);
}

// The analysis runs here, off the page's thread: a few hundred milliseconds on a slow phone must
// not freeze the dialog.
self.onmessage = (event: MessageEvent<PronunciationRequest | PronunciationWarmUp>) => {
  if ("warmUp" in event.data) return warmUp();
  const { id, model, modelRate, recording, recordingRate } = event.data;
  const started = performance.now();
  const result = comparePronunciation(model, modelRate, recording, recordingRate);
  const reply: PronunciationReply = { id, result, ms: performance.now() - started };
  self.postMessage(reply);
};
