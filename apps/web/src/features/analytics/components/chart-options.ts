import type uPlot from "uplot";

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  bars?: boolean;
}

const DAY_S = 86_400;

export interface ChartInput {
  /** Seconds since the epoch for a time axis, or 1, 2, 3… with `xLabels`. */
  x: number[];
  series: ChartSeries[];
  /** What the x values are, in the page's language ("Jour", "Day"): the legend's first entry. */
  xName: string;
  xLabels?: (value: number) => string;
  /** Dates on the time axis and in the legend in this locale ("3 mars" / "3 Mar"). */
  locale: string;
  width: number;
  height: number;
}

/** Whether a series has a value with no value beside it: a line cannot draw it, a point must. */
export function hasLonePoint(values: readonly (number | null)[]): boolean {
  return values.some(
    (v, i) => v !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null,
  );
}

/**
 * The x range: the data's, widened by half a step on each side when it is one value (a day, a
 * lesson) so that the value stands in the middle of the chart rather than on a scale of width 0.
 */
export function xRange(min: number, max: number, time: boolean): [number, number] {
  if (min !== max) return [min, max];
  const half = time ? DAY_S / 2 : 0.5;
  return [min - half, max + half];
}

/**
 * uPlot's options for a chart of the analytics page: the legend in the page's language (the x
 * entry named, dates and numbers formatted for the locale, no "Time: --"), lone values drawn as
 * points, one day of data in the middle of its chart.
 */
export function chartOptions(input: ChartInput, bars: uPlot.Series.PathBuilder | undefined): uPlot.Options {
  const { x, series, xName, xLabels, locale, width, height } = input;
  const time = !xLabels;
  const day = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const xText = (v: number) => (xLabels ? xLabels(v) : day.format(new Date(v * 1000)));
  const single = x.length === 1;
  return {
    width,
    height,
    fmtDate: () => (date) => day.format(date),
    tzDate: (ts) => new Date(ts * 1000),
    scales: { x: { time, range: (_u, min, max) => xRange(min, max, time) } },
    axes: [
      xLabels ? { values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? xLabels(s) : "")) } : {},
      {},
    ],
    series: [
      { label: xName, value: (_u, v) => (v === null || v === undefined ? "" : xText(v)) },
      ...series.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? "—" : number.format(v)),
        ...(s.bars
          ? { fill: `${s.color}99`, paths: bars }
          : single || hasLonePoint(s.values)
            ? { points: { show: true, size: 8, fill: s.color } }
            : {}),
      })),
    ],
  };
}
