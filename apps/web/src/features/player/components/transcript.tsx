import { type Lang, pickField } from "@parlons/contract";
import { Space, Switch, Typography } from "antd";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLang } from "@/lib/use-locale";
import type { TranscriptLine } from "../lib/cues";
import { formatClock } from "../lib/time";
import { type TranscriptWords, WordLine } from "./word-line";

interface TranscriptProps {
  cues: readonly TranscriptLine[];
  /** Shown as it is when there are no cue times. */
  text?: string | null;
  current: number;
  onSeek: (time: number) => void;
  /** Something to do with a line (add it to the review deck), shown beside it. */
  lineAction?: (cue: TranscriptLine) => ReactNode;
  /** Words as buttons to look up (a signed-in learner's lesson), in the "tap words" mode. */
  words?: TranscriptWords;
}

const WORD_MODE_KEY = "parlons.wordMode";

/** The "tap words" mode, remembered on this device. */
function useWordMode(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => {
    try {
      return localStorage.getItem(WORD_MODE_KEY) === "1";
    } catch {
      return false;
    }
  });
  const set = (value: boolean) => {
    setOn(value);
    try {
      localStorage.setItem(WORD_MODE_KEY, value ? "1" : "0");
    } catch {
      // storage refused (private mode): the mode lasts this visit
    }
  };
  return [on, set];
}

function ModeSwitch(props: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  testId: string;
}) {
  return (
    <span className="transcript__mode">
      <Switch
        id={props.id}
        size="small"
        checked={props.checked}
        onChange={props.onChange}
        data-testid={props.testId}
      />{" "}
      <label htmlFor={props.id}>{props.label}</label>
    </span>
  );
}

/** The line's translation in the interface's language, else by the fallback rule. */
function translationOf(cue: TranscriptLine, lang: Lang): string {
  return pickField(cue, "translation", lang).trim();
}

/**
 * Transcript lines: each one a button that seeks there and reveals (or hides again) its
 * translation; the line being spoken is highlighted. "Show translations" reveals them all;
 * "Hide the text" leaves only the times, for listening practice (a tapped line shows its text).
 */
export function Transcript({ cues, text, current, onSeek, lineAction, words }: TranscriptProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const listRef = useRef<HTMLOListElement>(null);
  const id = useId();
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [hideText, setHideText] = useState(false);
  const [wordMode, setWordMode] = useWordMode();
  const translated = cues.some((c) => translationOf(c, lang));

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

  const toggleLine = (i: number) =>
    setRevealed((old) => {
      const next = new Set(old);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });

  return (
    <div className="transcript-box">
      <Space wrap size="large" className="transcript__modes">
        {translated && (
          <ModeSwitch
            id={`${id}-all`}
            checked={showAll}
            onChange={setShowAll}
            label={t("player:showTranslations")}
            testId="show-translations"
          />
        )}
        {words && (
          <ModeSwitch
            id={`${id}-words`}
            checked={wordMode}
            onChange={setWordMode}
            label={t("player:wordMode")}
            testId="word-mode"
          />
        )}
        <ModeSwitch
          id={`${id}-hide`}
          checked={hideText}
          onChange={setHideText}
          label={t("player:hideText")}
          testId="hide-text"
        />
      </Space>
      {words && wordMode && (
        <p className="transcript__legend" data-testid="word-legend">
          {t("player:wordLegend")}
        </p>
      )}
      <ol className="transcript" ref={listRef} data-testid="transcript" aria-label={t("player:transcript")}>
        {cues.map((cue, i) => {
          const open = revealed.has(i);
          const translation = translationOf(cue, lang);
          const showText = !hideText || open;
          const shownTranslation = translation && (open || showAll) && (
            <span className="transcript__translation" lang={lang} data-testid="transcript-translation">
              {translation}
            </span>
          );
          // a segment whose text is not typed yet (audio without a script) still plays and repeats
          const untitled = cue.text.trim() === "";
          if (words && wordMode && showText && !untitled)
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: cues of one lesson never reorder
              <li key={i} className="transcript__item" data-testid="transcript-line">
                <WordLine
                  cue={cue}
                  current={i === current}
                  expanded={translation ? open || showAll : undefined}
                  onTime={() => {
                    onSeek(cue.start);
                    toggleLine(i);
                  }}
                  words={words}
                  translation={shownTranslation}
                />
                {lineAction?.(cue)}
              </li>
            );
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: cues of one lesson never reorder
            <li key={i} className="transcript__item" data-testid="transcript-line">
              <button
                type="button"
                className="transcript__line"
                aria-current={i === current ? "true" : undefined}
                aria-expanded={translation ? open || showAll : undefined}
                onClick={() => {
                  onSeek(cue.start);
                  toggleLine(i);
                }}
              >
                <span className="transcript__time">{formatClock(cue.start)}</span>
                <span className="transcript__body">
                  {untitled ? (
                    <span
                      className="transcript__text transcript__text--segment"
                      data-testid="transcript-segment"
                    >
                      {t("player:segment", { n: i + 1 })}
                    </span>
                  ) : showText ? (
                    <span className="transcript__text">{cue.text}</span>
                  ) : (
                    <span className="transcript__text transcript__text--hidden">
                      <span aria-hidden="true">• • •</span>
                      <span className="visually-hidden">{t("player:textHidden")}</span>
                    </span>
                  )}
                  {shownTranslation}
                </span>
              </button>
              {lineAction?.(cue)}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
