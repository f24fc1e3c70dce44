import type { ReviewRating } from "@parlons/contract";
import { Button } from "antd";
import { useTranslation } from "react-i18next";

const RATINGS: { value: ReviewRating; key: "again" | "hard" | "good" | "easy" }[] = [
  { value: 1, key: "again" },
  { value: 2, key: "hard" },
  { value: 3, key: "good" },
  { value: 4, key: "easy" },
];

/** Again, Hard, Good, Easy: the learner's own grade of a recall said aloud. */
export function GradeButtons({ onGrade }: { onGrade: (rating: ReviewRating) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="practice-grades">
      <legend className="practice-grades__legend">{t("practice:recall.gradeLabel")}</legend>
      {RATINGS.map((r) => (
        <Button
          key={r.value}
          type={r.value === 3 ? "primary" : "default"}
          danger={r.value === 1}
          onClick={() => onGrade(r.value)}
          data-testid={`practice-grade-${r.key}`}
        >
          {t(`practice:ratings.${r.key}`)}
        </Button>
      ))}
    </fieldset>
  );
}
