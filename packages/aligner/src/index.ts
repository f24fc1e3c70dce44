export {
  type AlignedCue,
  AlignInputError,
  type AlignMode,
  type AlignOptions,
  type AlignResult,
  alignAudio,
} from "./align.js";
export { AudioDecodeError, type DecodedAudio, decodeAudio } from "./decode.js";
export { type ProposedLine, type ProposeResult, proposeLines } from "./propose.js";
export { AlignWorkerError, alignInWorker } from "./run-in-worker.js";
export { type AlignLanguage, type SplitMode, splitScript } from "./script.js";
export { toWebVtt } from "./vtt.js";
