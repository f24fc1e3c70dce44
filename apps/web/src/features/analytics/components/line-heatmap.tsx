import { type Analytics, type AnalyticsLine, pickField } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Select, Skeleton, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { useFormat } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { courseLinesQuery } from "../api/analytics-api";
import { FiguresTable } from "./figures-table";

/** Failure-rate bands, lightest to darkest: each cell also prints its rate (not colour alone). */
const BANDS = [
  { upTo: 0.1, className: "line-heat--1" },
  { upTo: 0.25, className: "line-heat--2" },
  { upTo: 0.4, className: "line-heat--3" },
  { upTo: 0.6, className: "line-heat--4" },
  { upTo: Number.POSITIVE_INFINITY, className: "line-heat--5" },
] as const;
const bandOf = (rate: number | null) =>
  rate === null ? "line-heat--none" : (BANDS.find((b) => rate <= b.upTo) ?? BANDS[4]).className;

/**
 * What is hard in a course, for its authors: one row per lesson, one cell per line coloured by the
 * share of failed grades (review "Again", failed exercises), each cell a button that shows the
 * line and its figures; the same figures as a table, hardest first.
 */
export function LineHeatmap({ courses }: { courses: Analytics["funnel"] }) {
  const { t } = useTranslation("analytics");
  const lang = useLang();
  const format = useFormat();
  const [courseId, setCourseId] = useState(courses[0]?.course_id);
  const [picked, setPicked] = useState<{ lesson: number; line: AnalyticsLine } | null>(null);
  const lines = useQuery({ ...courseLinesQuery(courseId ?? ""), enabled: Boolean(courseId) });
  const title = (c: { title_fr: string; title_en: string }) => pickField(c, "title", lang);
  const percent = (rate: number | null) =>
    rate === null ? "–" : format.number(rate, { style: "percent", maximumFractionDigits: 0 });
  const perLearner = (line: AnalyticsLine) =>
    line.grades_per_learner === null
      ? "–"
      : format.number(line.grades_per_learner, { maximumFractionDigits: 1 });
  const describe = (lesson: number, line: AnalyticsLine) =>
    t("hard.cell", {
      lesson,
      line: line.position + 1,
      text: line.text,
      rate: percent(line.failure_rate),
      grades: format.number(line.grades),
      learners: format.number(line.learners),
    });
  const data = lines.data;
  const ranked = (data?.lessons ?? [])
    .flatMap((lesson, i) => lesson.lines.map((line) => ({ lesson: i + 1, line })))
    .filter((r) => r.line.failure_rate !== null)
    .sort((a, b) => (b.line.failure_rate ?? 0) - (a.line.failure_rate ?? 0));

  return (
    <Card
      title={<h2 className="analytics-figure__title">{t("hard.title")}</h2>}
      data-testid="analytics-hard-lines"
      extra={
        courses.length > 0 && (
          <Select
            aria-label={t("course")}
            value={courseId}
            onChange={(id) => {
              setCourseId(id);
              setPicked(null);
            }}
            style={{ minWidth: 200 }}
            options={courses.map((c) => ({ value: c.course_id, label: title(c) }))}
          />
        )
      }
    >
      <Typography.Paragraph type="secondary">{t("hard.intro")}</Typography.Paragraph>
      {!courseId ? (
        <Typography.Text type="secondary">{t("none")}</Typography.Text>
      ) : lines.isError ? (
        <LoadError query={lines} compact />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <>
          <ul className="line-heat__legend" aria-label={t("hard.legend")}>
            <li>
              <span className="line-heat line-heat--none" aria-hidden /> {t("hard.noGrades")}
            </li>
            {BANDS.map((b, i) => (
              <li key={b.className}>
                <span className={`line-heat ${b.className}`} aria-hidden />{" "}
                {i === BANDS.length - 1
                  ? t("hard.above", { from: percent(BANDS[i - 1]?.upTo ?? 0) })
                  : t("hard.upTo", { to: percent(b.upTo) })}
              </li>
            ))}
          </ul>
          <div className="line-heat__rows">
            {data.lessons.map((lesson, i) => (
              <div className="line-heat__row" key={lesson.lesson_id}>
                <span className="line-heat__lesson" id={`heat-lesson-${lesson.lesson_id}`}>
                  {t("columns.lessonNumber", { n: i + 1 })} · {title(lesson)}
                </span>
                {lesson.lines.length === 0 ? (
                  <Typography.Text type="secondary">{t("hard.noLines")}</Typography.Text>
                ) : (
                  <ul className="line-heat__cells" aria-labelledby={`heat-lesson-${lesson.lesson_id}`}>
                    {lesson.lines.map((line) => (
                      <li key={line.cue_id}>
                        <button
                          type="button"
                          className={`line-heat ${bandOf(line.failure_rate)}`}
                          aria-label={describe(i + 1, line)}
                          aria-pressed={picked?.line.cue_id === line.cue_id}
                          onClick={() => setPicked({ lesson: i + 1, line })}
                          data-testid="heat-cell"
                        >
                          {line.failure_rate === null ? "–" : Math.round(line.failure_rate * 100)}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            ))}
          </div>
          <div aria-live="polite" className="line-heat__picked" data-testid="heat-picked">
            {picked && (
              <>
                <Typography.Text strong>
                  {t("hard.pickedTitle", { lesson: picked.lesson, line: picked.line.position + 1 })}
                </Typography.Text>{" "}
                « {picked.line.text} »
                <br />
                {t("hard.figures", {
                  rate: percent(picked.line.failure_rate),
                  again: format.number(picked.line.again),
                  hard: format.number(picked.line.hard),
                  grades: format.number(picked.line.grades),
                  learners: format.number(picked.line.learners),
                  perLearner: perLearner(picked.line),
                })}
              </>
            )}
          </div>
          <Typography.Paragraph type="secondary" className="line-heat__note">
            {t("hard.replays")}
          </Typography.Paragraph>
          <FiguresTable
            title={t("hard.title")}
            columns={[
              t("columns.lesson"),
              t("hard.line"),
              t("hard.failureRate"),
              t("hard.grades"),
              t("hard.learners"),
              t("hard.perLearner"),
            ]}
            empty={t("hard.noGrades")}
            rows={ranked.map(({ lesson, line }) => ({
              key: line.cue_id,
              cells: [
                t("columns.lessonNumber", { n: lesson }),
                line.text,
                percent(line.failure_rate),
                format.number(line.grades),
                format.number(line.learners),
                perLearner(line),
              ],
            }))}
          />
        </>
      )}
    </Card>
  );
}
