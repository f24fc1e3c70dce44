import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { type ChartSeries, chartOptions } from "./chart-options";

/**
 * One uPlot chart (canvas, ~50 KB: loaded with the analytics page only). Its text alternative is
 * the table the caller puts next to it; the canvas itself is named for screen readers.
 */
export function Chart({
  label,
  x,
  series,
  xName,
  xLabels,
  height = 220,
  testId,
  locale,
}: {
  label: string;
  /** What the x values are ("Jour", "Leçon"), named in the legend. */
  xName: string;
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
      chartOptions({ x, series, xName, xLabels, locale, width: Math.max(el.clientWidth, 280), height }, bars),
      [x, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 280), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, xName, xLabels, height, locale]);
  return <div ref={ref} role="img" aria-label={label} data-testid={testId} className="analytics-chart" />;
}
