import { Typography } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { TranscriptCue } from "../lib/cues";
import { formatClock } from "../lib/time";

interface TranscriptProps {
  cues: readonly TranscriptCue[];
  /** Shown as it is when there are no cue times. */
  text?: string | null;
  current: number;
  onSeek: (time: number) => void;
}

/** Transcript lines: each one a button that seeks there; the line being spoken is highlighted. */
export function Transcript({ cues, text, current, onSeek }: TranscriptProps) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);

  // keep the current line in view, scrolling the transcript box only (never the page)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the current line changes
  useEffect(() => {
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>("[aria-current='true']");
    if (!list || !item) return;
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTo({ top: Math.max(0, top - list.clientHeight / 3), behavior: "smooth" });
    }
  }, [current]);

  if (cues.length === 0) {
    if (!text?.trim()) return null;
    return (
      <Typography.Paragraph className="transcript transcript--plain" data-testid="transcript">
        {text}
      </Typography.Paragraph>
    );
  }
  return (
    <ol className="transcript" ref={listRef} data-testid="transcript" aria-label={t("player:transcript")}>
      {cues.map((cue, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: cues of one lesson never reorder
        <li key={i}>
          <button
            type="button"
            className="transcript__line"
            aria-current={i === current ? "true" : undefined}
            onClick={() => onSeek(cue.start)}
          >
            <span className="transcript__time">{formatClock(cue.start)}</span>
            <span className="transcript__text">{cue.text}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
