import { splitWords } from "@parlons/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TranscriptLine } from "../lib/cues";
import { formatClock } from "../lib/time";

/** What a transcript needs to make its words buttons: each word's status, and what a tap does. */
export interface TranscriptWords {
  /** "learning" or "known" for the learner's words; undefined for a new word. */
  statusOf(word: string): "learning" | "known" | undefined;
  onWord(word: string, cue: TranscriptLine, button: HTMLButtonElement): void;
}

/**
 * A transcript line whose words are buttons (tap one to look it up), coloured by the learner's
 * knowledge of them; its time is the button that plays from there and reveals the translation.
 */
export function WordLine(props: {
  cue: TranscriptLine;
  current: boolean;
  expanded: boolean | undefined;
  onTime: () => void;
  words: TranscriptWords;
  translation: ReactNode;
}) {
  const { cue, words } = props;
  const { t } = useTranslation();
  const time = formatClock(cue.start);
  return (
    <div
      className="transcript__line transcript__line--words"
      aria-current={props.current ? "true" : undefined}
    >
      <button
        type="button"
        className="transcript__time transcript__time-button"
        aria-label={t("player:playFrom", { time })}
        aria-expanded={props.expanded}
        onClick={props.onTime}
      >
        {time}
      </button>
      <span className="transcript__body">
        <span className="transcript__text">
          {splitWords(cue.text).map((part, i) => {
            if (!part.word) return part.text;
            const status = words.statusOf(part.text) ?? "new";
            return (
              <button
                // biome-ignore lint/suspicious/noArrayIndexKey: the words of one line never reorder
                key={i}
                type="button"
                className={`transcript__word transcript__word--${status}`}
                data-status={status}
                data-testid="transcript-word"
                onClick={(event) => words.onWord(part.text, cue, event.currentTarget)}
              >
                {part.text}
              </button>
            );
          })}
        </span>
        {props.translation}
      </span>
    </div>
  );
}
