import { wordsOf } from "@parlons/contract";
import { Button, Input, Radio, Typography } from "antd";
import { Fragment, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ExerciseProps } from "../lib/answer";
import { ListenButtons } from "./listen-buttons";

/**
 * The line with the words a blank hides, as they are written around it (punctuation kept): the
 * text between two words stays, a blank replaces its word.
 */
type Piece = { key: string } & ({ text: string } | { blank: number });

function pieces(text: string, blanks: number[]): Piece[] {
  const words = wordsOf(text);
  const out: Piece[] = [];
  let rest = text.normalize("NFC");
  words.forEach((word, index) => {
    const at = rest.indexOf(word);
    if (at < 0) return;
    const before = rest.slice(0, at);
    if (blanks.includes(index)) {
      if (before) out.push({ key: `s${index}`, text: before });
      out.push({ key: `b${index}`, blank: blanks.indexOf(index) });
    } else out.push({ key: `w${index}`, text: before + word });
    rest = rest.slice(at + word.length);
  });
  if (rest) out.push({ key: "end", text: rest });
  return out;
}

/** Cloze: the line with one or two content words blanked, typed or picked among the course's words. */
export function ClozeExercise({ item, play, onAnswer }: ExerciseProps) {
  const { t } = useTranslation();
  const blanks = item.cloze?.blanks ?? [];
  const choices = item.cloze?.choices ?? [];
  const [answers, setAnswers] = useState<string[]>(() => blanks.map(() => ""));
  const parts = useMemo(() => pieces(item.cue.text, blanks), [item.cue.text, blanks]);
  const set = (i: number, value: string) => setAnswers((old) => old.map((a, j) => (j === i ? value : a)));
  const submit = () => onAnswer({ kind: "cloze", blanks, answers });

  return (
    <div className="practice-exercise" data-testid="practice-cloze">
      <Typography.Paragraph>{t("practice:cloze.prompt")}</Typography.Paragraph>
      <ListenButtons play={play} disabled={!item.lesson.audio_url} />
      <p className="practice-cloze__line" lang={item.language}>
        {parts.map((part) =>
          "blank" in part ? (
            <Input
              key={part.key}
              className="practice-cloze__blank"
              value={answers[part.blank]}
              onChange={(e) => set(part.blank, e.target.value)}
              onPressEnter={submit}
              aria-label={t("practice:cloze.blankLabel", { n: part.blank + 1 })}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              data-testid={`practice-blank-${part.blank}`}
              autoFocus={part.blank === 0}
            />
          ) : (
            <Fragment key={part.key}>{part.text}</Fragment>
          ),
        )}
      </p>
      {choices.map((options, i) =>
        options.length > 1 ? (
          <fieldset key={blanks[i]} className="practice-fieldset">
            <legend className="practice-fieldset__legend">
              {t("practice:cloze.choicesLabel", { n: i + 1 })}
            </legend>
            <Radio.Group
              className="practice-cloze__choices"
              optionType="button"
              value={answers[i]}
              onChange={(e) => set(i, e.target.value as string)}
              options={options.map((word) => ({ label: word, value: word }))}
              data-testid={`practice-choices-${i}`}
            />
          </fieldset>
        ) : null,
      )}
      <Button type="primary" onClick={submit} data-testid="practice-check">
        {t("practice:check")}
      </Button>
    </div>
  );
}
