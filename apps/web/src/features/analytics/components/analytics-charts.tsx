import { type Analytics, type Lang, pickField } from "@parlons/contract";
import { Card, Col, Row, Select, Typography } from "antd";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { Chart } from "./chart";
import type { ChartSeries } from "./chart-options";
import { FiguresTable } from "./figures-table";
import { LineHeatmap } from "./line-heatmap";

const COLORS = ["#1677ff", "#52c41a", "#fa8c16", "#eb2f96", "#722ed1", "#13c2c2"];
const epoch = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** A chart and, for screen readers and anyone who prefers numbers, the same figures as a table. */
function Figure({
  title,
  testId,
  chart,
  columns,
  rows,
}: {
  title: string;
  testId: string;
  chart: ReactNode;
  columns: string[];
  rows: (string | number)[][];
}) {
  return (
    <Card title={<h2 className="analytics-figure__title">{title}</h2>} data-testid={testId}>
      {chart}
      <FiguresTable
        title={title}
        columns={columns}
        rows={rows.map((row) => ({ key: String(row[0]), cells: row }))}
      />
    </Card>
  );
}

/** Every chart of the analytics page (this module and uPlot load with the page, staff only). */
export default function AnalyticsCharts({ data }: { data: Analytics }) {
  const { t } = useTranslation("analytics");
  const lang = useLang();
  const format = useFormat();
  const x = useMemo(() => data.days.map((d) => epoch(d.day)), [data.days]);
  const day = (value: string) => format.date(value, "medium") ?? value;

  const daily = (metrics: { key: keyof Analytics["days"][number]; label: string; bars?: boolean }[]) =>
    metrics.map(
      (m, i): ChartSeries => ({
        label: m.label,
        color: COLORS[i % COLORS.length] as string,
        bars: m.bars,
        values: data.days.map((d) => d[m.key] as number | null),
      }),
    );
  // made again when the data or the language change (the page renders again only then)
  const series = {
    active: daily([{ key: "active", label: t("series.active") }]),
    minutes: daily([{ key: "minutes", label: t("series.minutes"), bars: true }]),
    reviews: daily([
      { key: "reviews", label: t("series.reviews"), bars: true },
      { key: "lessons_done", label: t("series.lessonsDone") },
    ]),
    subscriptions: daily([
      { key: "new_paid", label: t("series.newPaid"), bars: true },
      { key: "churned", label: t("series.churned") },
    ]),
    mrr: [
      {
        label: t("series.mrr"),
        color: COLORS[0] as string,
        values: data.days.map((d) => (d.mrr === null ? null : d.mrr / 100)),
      },
    ],
    attendance: daily([{ key: "attendance", label: t("series.attendance"), bars: true }]),
  };
  const chart = (label: string, s: ChartSeries[], testId: string) => (
    <Chart label={label} x={x} xName={t("columns.day")} series={s} locale={format.locale} testId={testId} />
  );
  const dayRows = (keys: (keyof Analytics["days"][number])[]) =>
    data.days.map((d) => [
      day(d.day),
      ...keys.map((k) => (d[k] === null ? "—" : format.number(d[k] as number))),
    ]);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <Figure
          title={t("charts.active")}
          testId="analytics-active"
          chart={chart(t("charts.active"), series.active, "chart-active")}
          columns={[t("columns.day"), t("series.active")]}
          rows={dayRows(["active"])}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Card
          title={<h2 className="analytics-figure__title">{t("charts.periods")}</h2>}
          data-testid="analytics-periods"
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <PeriodTable title={t("columns.week")} rows={data.weeks.map((w) => [day(w.start), w.active])} />
            </Col>
            <Col xs={24} md={12}>
              <PeriodTable
                title={t("columns.month")}
                rows={data.months.map((m) => [
                  new Intl.DateTimeFormat(format.locale, {
                    month: "long",
                    year: "numeric",
                    timeZone: "UTC",
                  }).format(new Date(`${m.start}T00:00:00Z`)),
                  m.active,
                ])}
              />
            </Col>
          </Row>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Figure
          title={t("charts.minutes")}
          testId="analytics-minutes"
          chart={chart(t("charts.minutes"), series.minutes, "chart-minutes")}
          columns={[t("columns.day"), t("series.minutes")]}
          rows={dayRows(["minutes"])}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Figure
          title={t("charts.reviews")}
          testId="analytics-reviews"
          chart={chart(t("charts.reviews"), series.reviews, "chart-reviews")}
          columns={[t("columns.day"), t("series.reviews"), t("series.lessonsDone")]}
          rows={dayRows(["reviews", "lessons_done"])}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Figure
          title={t("charts.subscriptions")}
          testId="analytics-subscriptions"
          chart={chart(t("charts.subscriptions"), series.subscriptions, "chart-subscriptions")}
          columns={[t("columns.day"), t("series.newPaid"), t("series.churned")]}
          rows={dayRows(["new_paid", "churned"])}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Figure
          title={t("charts.mrr", { amount: format.money(data.mrr, data.currency) })}
          testId="analytics-mrr"
          chart={chart(t("charts.mrrShort"), series.mrr, "chart-mrr")}
          columns={[t("columns.day"), t("series.mrr")]}
          rows={data.days
            .filter((d) => d.mrr !== null)
            .map((d) => [day(d.day), format.money(d.mrr ?? 0, data.currency)])}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Figure
          title={t("charts.attendance")}
          testId="analytics-attendance"
          chart={chart(t("charts.attendance"), series.attendance, "chart-attendance")}
          columns={[t("columns.day"), t("series.attendance")]}
          rows={dayRows(["attendance"])}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Funnel funnel={data.funnel} lang={lang} />
      </Col>
      <Col xs={24}>
        <LineHeatmap courses={data.funnel} />
      </Col>
    </Row>
  );
}

function PeriodTable({ title, rows }: { title: string; rows: (string | number)[][] }) {
  const { t } = useTranslation("analytics");
  return (
    <table className="analytics-periods">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{title}</th>
          <th scope="col">{t("series.active")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={2}>{t("none")}</td>
          </tr>
        ) : (
          rows.map(([period, value]) => (
            <tr key={String(period)}>
              <td>{period}</td>
              <td>{value}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/** Learners who reached each lesson of one course (chosen in a list). */
function Funnel({ funnel, lang }: { funnel: Analytics["funnel"]; lang: Lang }) {
  const { t } = useTranslation("analytics");
  const format = useFormat();
  const [courseId, setCourseId] = useState(funnel[0]?.course_id);
  const course = funnel.find((c) => c.course_id === courseId) ?? funnel[0];
  const title = (c: { title_fr: string; title_en: string }) => pickField(c, "title", lang);
  const x = useMemo(() => course?.lessons.map((_, i) => i + 1) ?? [], [course]);
  const series = useMemo(
    () => [
      {
        label: t("series.reached"),
        color: COLORS[4] as string,
        bars: true,
        values: course?.lessons.map((l) => l.learners) ?? [],
      },
    ],
    [course, t],
  );
  const lessonLabel = useMemo(() => (n: number) => t("columns.lessonNumber", { n }), [t]);
  return (
    <Card
      title={<h2 className="analytics-figure__title">{t("charts.funnel")}</h2>}
      data-testid="analytics-funnel"
      extra={
        funnel.length > 0 && (
          <Select
            aria-label={t("course")}
            value={course?.course_id}
            onChange={setCourseId}
            style={{ minWidth: 200 }}
            options={funnel.map((c) => ({ value: c.course_id, label: title(c) }))}
          />
        )
      }
    >
      {!course || course.lessons.length === 0 ? (
        <Typography.Text type="secondary">{t("none")}</Typography.Text>
      ) : (
        <>
          <Chart
            label={t("charts.funnelOf", { course: title(course) })}
            x={x}
            series={series}
            xName={t("columns.lesson")}
            xLabels={lessonLabel}
            locale={format.locale}
            testId="chart-funnel"
          />
          <FiguresTable
            title={t("charts.funnelOf", { course: title(course) })}
            columns={[t("columns.lesson"), t("series.reached")]}
            rows={course.lessons.map((l, i) => ({
              key: l.lesson_id,
              cells: [`${i + 1}. ${title(l)}`, format.number(l.learners)],
            }))}
          />
        </>
      )}
    </Card>
  );
}
