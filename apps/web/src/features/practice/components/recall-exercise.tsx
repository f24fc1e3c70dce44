import { AudioOutlined, SoundOutlined } from "@ant-design/icons";
import { pickField } from "@parlons/contract";
import { Button, Segmented, Space, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLang } from "@/lib/use-locale";
import { useRecorder } from "../hooks/use-recorder";
import type { ExerciseProps } from "../lib/answer";
import { AnswerBox } from "./answer-box";
import { GradeButtons } from "./grade-buttons";

/** Speaks the translation with the device's voice for the learner's language, where it has one. */
function speak(text: string, lang: string) {
  if (typeof speechSynthesis === "undefined") return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = lang;
  speechSynthesis.cancel();
  speechSynthesis.speak(utterance);
}

/**
 * Recall: the translation in the learner's language; the line is typed (graded as a dictation)
 * or said aloud, then compared by ear (the recording, then the original) and graded by the learner.
 */
export function RecallExercise({ item, play, onAnswer }: ExerciseProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [mode, setMode] = useState<"say" | "type">("say");
  const [answer, setAnswer] = useState("");
  const [revealed, setRevealed] = useState(false);
  const recorder = useRecorder();
  const mine = useRef<HTMLAudioElement>(null);
  const translation = pickField(item.cue, "translation", lang);

  const compare = () => {
    setRevealed(true);
    const el = mine.current;
    if (recorder.url && el) {
      el.onended = () => play(1);
      void el.play().catch(() => play(1));
    } else play(1);
  };

  return (
    <div className="practice-exercise" data-testid="practice-recall">
      <Typography.Paragraph>{t("practice:recall.prompt")}</Typography.Paragraph>
      <p className="practice-recall__translation" data-testid="practice-translation">
        {translation}
        {typeof speechSynthesis !== "undefined" && (
          <Button
            type="text"
            icon={<SoundOutlined aria-hidden />}
            onClick={() => speak(translation, lang)}
            aria-label={t("practice:recall.hear")}
          />
        )}
      </p>
      <Segmented
        value={mode}
        onChange={(value) => setMode(value as "say" | "type")}
        options={[
          { value: "say", label: t("practice:recall.say") },
          { value: "type", label: t("practice:recall.type") },
        ]}
      />
      {mode === "type" ? (
        <>
          <AnswerBox
            value={answer}
            onChange={setAnswer}
            onSubmit={() => onAnswer({ kind: "recall_typed", answer })}
            language={item.language}
            label={t("practice:recall.answerLabel")}
          />
          <Button
            type="primary"
            onClick={() => onAnswer({ kind: "recall_typed", answer })}
            data-testid="practice-check"
          >
            {t("practice:check")}
          </Button>
        </>
      ) : (
        <Space direction="vertical" style={{ width: "100%" }}>
          {recorder.supported && (
            <Button
              icon={<AudioOutlined aria-hidden />}
              danger={recorder.recording}
              onClick={recorder.recording ? recorder.stop : () => void recorder.start()}
              data-testid="practice-record"
            >
              {recorder.recording ? t("practice:recall.stop") : t("practice:recall.record")}
            </Button>
          )}
          {/* biome-ignore lint/a11y/useMediaCaption: the learner's own voice, compared by ear */}
          {recorder.url && <audio ref={mine} src={recorder.url} />}
          <Button
            type="primary"
            onClick={compare}
            disabled={recorder.recording}
            data-testid="practice-compare"
          >
            {recorder.url ? t("practice:recall.compare") : t("practice:recall.reveal")}
          </Button>
          {revealed && (
            <>
              <p className="practice-recall__line" lang={item.language} data-testid="practice-line">
                {item.cue.text}
              </p>
              <GradeButtons onGrade={(rating) => onAnswer({ kind: "recall_spoken", rating })} />
            </>
          )}
        </Space>
      )}
    </div>
  );
}
