import type { PracticeGrade } from "@parlons/contract";
import { Alert, Button } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { WordDiff } from "./word-diff";

/** An exercise's result: how it went, the word-by-word diff or the blanks, the line, and Continue. */
export function ResultPanel(props: {
  grade: PracticeGrade;
  line: string;
  language: string;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const next = useRef<HTMLButtonElement>(null);
  useEffect(() => next.current?.focus(), []);
  const { grade } = props;
  const verdict = grade.rating >= 3 ? "good" : grade.rating === 2 ? "hard" : "again";
  return (
    <div className="practice-result" data-testid="practice-result" data-rating={grade.rating}>
      <Alert
        type={verdict === "good" ? "success" : verdict === "hard" ? "warning" : "error"}
        showIcon
        title={t(`practice:result.${verdict}`)}
        description={t("practice:result.accuracy", { percent: Math.round(grade.accuracy * 100) })}
        role="status"
      />
      {grade.diff.length > 0 && <WordDiff diff={grade.diff} />}
      {grade.blanks.length > 0 && (
        <ul className="practice-blanks" data-testid="practice-blanks">
          {grade.blanks.map((b) => (
            <li key={b.index} className={b.correct ? "practice-diff__ok" : "practice-diff__wrong"}>
              {b.correct
                ? b.expected
                : t("practice:result.blank", { given: b.given || "—", expected: b.expected })}
            </li>
          ))}
        </ul>
      )}
      <p className="practice-result__line" lang={props.language}>
        {props.line}
      </p>
      <Button type="primary" ref={next} onClick={props.onNext} data-testid="practice-next">
        {t("practice:next")}
      </Button>
    </div>
  );
}
