import { Button, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ExerciseProps } from "../lib/answer";
import { AnswerBox } from "./answer-box";
import { ListenButtons } from "./listen-buttons";

/** Dictation: hear the line (again, or slower), type it. */
export function DictationExercise({ item, play, onAnswer }: ExerciseProps) {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState("");
  const submit = () => onAnswer({ kind: "dictation", answer });
  return (
    <div className="practice-exercise" data-testid="practice-dictation">
      <Typography.Paragraph>{t("practice:dictation.prompt")}</Typography.Paragraph>
      <ListenButtons play={play} disabled={!item.lesson.audio_url} />
      <AnswerBox
        value={answer}
        onChange={setAnswer}
        onSubmit={submit}
        language={item.language}
        label={t("practice:dictation.answerLabel")}
      />
      <Button type="primary" onClick={submit} data-testid="practice-check">
        {t("practice:check")}
      </Button>
    </div>
  );
}
