import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  bars?: boolean;
}

/**
 * One uPlot chart (canvas, ~50 KB: loaded with the analytics page only). Its text alternative is
 * the table the caller puts next to it; the canvas itself is named for screen readers.
 */
export function Chart({
  label,
  x,
  series,
  xLabels,
  height = 220,
  testId,
  locale,
}: {
  label: string;
  /** Dates on the time axis in this locale ("3 mars" / "3 Mar"). */
  locale: string;
  /** Seconds since the epoch for a time axis, or 1, 2, 3… with `xLabels`. */
  x: number[];
  series: ChartSeries[];
  xLabels?: (value: number) => string;
  height?: number;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const bars = uPlot.paths.bars?.({ size: [0.6, 48] });
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 280),
        height,
        fmtDate: () => {
          const day = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
          return (date) => day.format(date);
        },
        tzDate: (ts) => new Date(ts * 1000),
        scales: { x: { time: !xLabels } },
        axes: [
          xLabels
            ? { values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? xLabels(s) : "")) }
            : {},
          {},
        ],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            ...(s.bars ? { fill: `${s.color}99`, paths: bars } : {}),
          })),
        ],
      },
      [x, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 280), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, xLabels, height, locale]);
  return <div ref={ref} role="img" aria-label={label} data-testid={testId} className="analytics-chart" />;
}
