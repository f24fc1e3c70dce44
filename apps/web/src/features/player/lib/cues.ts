import { parseTranscript, type TranscriptCue } from "@parlons/contract";

export { parseTranscript, type TranscriptCue };

/** A transcript line as the player shows it: stored lines also carry an id and translations. */
export interface TranscriptLine extends TranscriptCue {
  id?: string;
  end?: number;
  translation_fr?: string;
  translation_en?: string;
}

/** Index of the cue playing at `time` (the last cue starting at or before it), or -1 before the first. */
export function cueIndexAt(cues: readonly TranscriptCue[], time: number): number {
  let lo = 0;
  let hi = cues.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((cues[mid] as TranscriptCue).start <= time + 1e-3) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Where cue `index` ends: the next cue's start, else the audio's end (or start + 5 s when unknown). */
export function cueEnd(
  cues: readonly TranscriptCue[],
  index: number,
  duration: number | null | undefined,
): number {
  const cue = cues[index];
  if (!cue) return 0;
  const next = cues[index + 1];
  if (next) return next.start;
  return duration && Number.isFinite(duration) && duration > cue.start ? duration : cue.start + 5;
}

/**
 * "Repeat after me": when playback went from `from` to `to` across the end of a cue, the
 * pause to leave for the learner (the cue's own length, in ms) and the cue's index.
 * The last cue ends with the audio, where there is nothing left to wait for.
 */
export function repeatPauseAfter(
  cues: readonly TranscriptCue[],
  from: number,
  to: number,
  duration: number | null | undefined,
): { index: number; pauseMs: number } | null {
  if (to <= from || to - from > 2) return null; // a seek, not playback
  const index = cueIndexAt(cues, from);
  if (index < 0 || index >= cues.length - 1) return null;
  const end = cueEnd(cues, index, duration);
  if (from < end && to >= end) {
    const cue = cues[index] as TranscriptCue;
    return { index, pauseMs: Math.round(Math.min(30, Math.max(0.5, end - cue.start)) * 1000) };
  }
  return null;
}
