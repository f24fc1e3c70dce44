import type { PracticeGrade } from "@parlons/contract";
import { useTranslation } from "react-i18next";

/**
 * The answer compared word by word: right words as they are, a wrong word struck out with the
 * right one after it, a missing word marked, a word in excess struck out. Screen readers hear
 * each mark (deleted and inserted text, and a label for the kind of mistake).
 */
export function WordDiff({ diff }: { diff: PracticeGrade["diff"] }) {
  const { t } = useTranslation();
  return (
    <p className="practice-diff" data-testid="practice-diff">
      {diff.map((step, i) => {
        const key = `${i}-${step.op}`;
        switch (step.op) {
          case "ok":
            return (
              <span key={key} className="practice-diff__ok">
                {step.expected}{" "}
              </span>
            );
          case "missing":
            return (
              <ins key={key} className="practice-diff__missing" title={t("practice:diff.missing")}>
                {step.expected}{" "}
              </ins>
            );
          case "extra":
            return (
              <del key={key} className="practice-diff__extra" title={t("practice:diff.extra")}>
                {step.given}{" "}
              </del>
            );
          default:
            return (
              <span key={key} className={`practice-diff__${step.op}`} title={t(`practice:diff.${step.op}`)}>
                <del>{step.given}</del> <ins>{step.expected}</ins>{" "}
              </span>
            );
        }
      })}
    </p>
  );
}
