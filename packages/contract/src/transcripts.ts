/** Lesson transcripts: `[mm:ss] sentence` lines, read and written (issue 3). */

export interface TranscriptCue {
  /** Seconds from the start of the audio. */
  start: number;
  text: string;
}

/** A lesson line: its time span (seconds) and text, with its translations (a stored cue has an id). */
export interface TimedCue extends TranscriptCue {
  id?: string;
  end: number;
  translation_fr: string;
  translation_en: string;
  /** Spanish (absent where a line comes from a file that has none: a saved line then keeps its own). */
  translation_es?: string;
}

const CUE_LINE = /^\s*\[(?:(\d{1,2}):)?(\d{1,3}):(\d{2})(?:\.(\d{1,3}))?\]\s*(.*)$/;

/**
 * Cues of a transcript written as `[mm:ss] sentence` lines (also `[h:mm:ss]` and
 * `[mm:ss.f]`). Lines without a time are appended to the previous cue; a transcript
 * without any time gives no cues (the web then shows it as plain text).
 */
export function parseTranscript(transcript: string | null | undefined): TranscriptCue[] {
  if (!transcript) return [];
  const cues: TranscriptCue[] = [];
  for (const line of transcript.split(/\r?\n/)) {
    const match = CUE_LINE.exec(line);
    if (match) {
      const [, h, m, s, frac, text] = match;
      const start = Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + (frac ? Number(`0.${frac}`) : 0);
      cues.push({ start, text: (text ?? "").trim() });
    } else if (cues.length > 0 && line.trim()) {
      const last = cues[cues.length - 1] as TranscriptCue;
      last.text = `${last.text} ${line.trim()}`.trim();
    }
  }
  return cues;
}

/**
 * Lines of a `[mm:ss] sentence` transcript with their ends: a line ends where the next starts,
 * the last one at the audio's end (or 5 s after its start when the duration is unknown).
 * Lines without text are dropped. The same rule migrated the stored transcripts (0011).
 */
export function transcriptToCues(
  transcript: string | null | undefined,
  duration?: number | null,
): TimedCue[] {
  const parsed = parseTranscript(transcript);
  return parsed
    .map((cue, i) => {
      const next = parsed[i + 1];
      const end = next ? next.start : duration && duration > cue.start ? duration : cue.start + 5;
      return { start: cue.start, end, text: cue.text, translation_fr: "", translation_en: "" };
    })
    .filter((cue) => cue.text.length > 0);
}

/** `[mm:ss]` or `[mm:ss.f]` (tenths kept when the time has them), `[h:mm:ss]` past an hour. */
export function transcriptTime(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const whole = Math.floor(tenths / 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const clock = h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
  return tenths % 10 === 0 ? clock : `${clock}.${tenths % 10}`;
}

/** The `[mm:ss] sentence` text of cues: what `parseTranscript` reads back. */
export function cuesToTranscript(cues: readonly TranscriptCue[]): string {
  return cues.map((cue) => `[${transcriptTime(cue.start)}] ${cue.text}`).join("\n");
}
