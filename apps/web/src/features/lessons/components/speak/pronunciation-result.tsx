import { Spin, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { PronunciationResult, StretchRhythm } from "@/features/lessons/lib/pronunciation/compare";
import type { usePronunciation } from "./hooks/use-pronunciation";
import { Intonation } from "./intonation";

function StretchRow({ stretch, n, longest }: { stretch: StretchRhythm; n: number; longest: number }) {
  const { t } = useTranslation();
  const percent = Math.round(Math.abs(stretch.relative - 1) * 100);
  const pace =
    percent < 15
      ? t("player:speak.score.even")
      : t(`player:speak.score.${stretch.relative > 1 ? "slower" : "faster"}`, { percent });
  const width = (seconds: number) => `${Math.min(100, (seconds / longest) * 100)}%`;
  return (
    <li className="speak__stretch" data-testid="pronunciation-stretch">
      <span>
        <strong>{t("player:speak.score.stretch", { n })}</strong> · {pace}
      </span>
      <span className="speak__bars" aria-hidden="true">
        <span className="speak__bar speak__bar--model" style={{ width: width(stretch.model) }} />
        <span className="speak__bar speak__bar--learner" style={{ width: width(stretch.learner) }} />
      </span>
      <Typography.Text type="secondary" className="speak__times">
        {t("player:speak.score.stretchTimes", {
          model: stretch.model.toLocaleString(undefined, { maximumFractionDigits: 1 }),
          yours: stretch.learner.toLocaleString(undefined, { maximumFractionDigits: 1 }),
        })}
      </Typography.Text>
    </li>
  );
}

function Result({ result }: { result: PronunciationResult }) {
  const { t } = useTranslation();
  const { advice, parts, contour } = result;
  const longest = Math.max(0.1, ...result.stretches.flatMap((s) => [s.model, s.learner]));
  return (
    <>
      <p className="speak__score">
        <span className="speak__score-value" data-testid="pronunciation-score">
          {result.score ?? "–"}
        </span>{" "}
        {t("player:speak.score.outOf")}
      </p>
      <Typography.Paragraph strong data-testid="pronunciation-advice">
        {t(`player:speak.score.advice.${advice.key}`, { n: advice.stretch })}
      </Typography.Paragraph>
      {parts && (
        <div className="speak__parts">
          <Tag>
            {t("player:speak.score.parts.sounds")} {parts.sounds}
          </Tag>
          <Tag>
            {t("player:speak.score.parts.melody")} {parts.melody ?? "–"}
          </Tag>
          <Tag>
            {t("player:speak.score.parts.rhythm")} {parts.rhythm}
          </Tag>
        </div>
      )}
      {contour && (
        <Intonation
          model={contour.model}
          learner={contour.learner}
          caption={t("player:speak.score.intonation")}
          label={
            parts?.melody === null || parts?.melody === undefined
              ? t("player:speak.score.melodyUnknown")
              : t("player:speak.score.intonationLabel", { value: parts.melody })
          }
        />
      )}
      {result.stretches.length > 0 && (
        <section aria-labelledby="speak-rhythm">
          <div id="speak-rhythm" className="speak__caption">
            {t("player:speak.score.rhythm")}
          </div>
          <ol className="speak__stretches">
            {result.stretches.map((s, i) => (
              // stretches have no identity beyond their place in the line
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <StretchRow key={i} stretch={s} n={i + 1} longest={longest} />
            ))}
          </ol>
        </section>
      )}
    </>
  );
}

/** The score of the recording, its advice, the two melodies and the rhythm, or where the analysis stands. */
export function PronunciationPanel({ analysis }: { analysis: ReturnType<typeof usePronunciation> }) {
  const { t } = useTranslation();
  if (!analysis) return null;
  return (
    <section
      className="speak__result"
      aria-labelledby="speak-score-title"
      data-testid="pronunciation"
      data-state={analysis.state}
    >
      <Typography.Title level={5} id="speak-score-title">
        {t("player:speak.score.title")}
      </Typography.Title>
      {analysis.state === "analysing" && (
        <p role="status">
          <Spin size="small" /> {t("player:speak.score.analysing")}
        </p>
      )}
      {analysis.state === "failed" && <p role="alert">{t("player:speak.score.failed")}</p>}
      {analysis.state === "done" && <Result result={analysis.result} />}
      <Typography.Paragraph type="secondary" className="speak__disclaimer">
        {t("player:speak.score.disclaimer")}
      </Typography.Paragraph>
    </section>
  );
}
