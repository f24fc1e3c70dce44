import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { type ChartInput, chartOptions, hasLonePoint, xRange } from "./chart-options";

const MARCH_3 = Date.parse("2026-03-03T00:00:00Z") / 1000;
const DAY = 86_400;
const plot = {} as uPlot;

const options = (over: Partial<ChartInput> = {}) =>
  chartOptions(
    {
      x: [MARCH_3, MARCH_3 + DAY, MARCH_3 + 2 * DAY],
      series: [{ label: "Apprenants actifs", color: "#1677ff", values: [1, 2, 3] }],
      xName: "Jour",
      locale: "fr-FR",
      width: 400,
      height: 200,
      ...over,
    },
    undefined,
  );

/** What the legend shows for series `i` at value `v` (v null: the cursor is on no day). */
function legend(o: uPlot.Options, i: number, v: number | null): string {
  const value = o.series[i]?.value;
  if (typeof value !== "function") throw new Error("no legend formatter");
  return String(value(plot, v as number, i, null));
}

describe("chart legends in the page's language", () => {
  it("names the day in the legend and formats dates and numbers for the locale, never 'Time: --'", () => {
    const fr = options();
    expect(fr.series[0]?.label).toBe("Jour");
    expect(legend(fr, 0, null)).toBe("");
    expect(legend(fr, 0, MARCH_3)).toBe("3 mars");
    expect(legend(fr, 1, 1234.5)).toBe("1\u202f234,5");
    expect(legend(fr, 1, null)).toBe("—");
    const en = options({ xName: "Day", locale: "en-GB" });
    expect(en.series[0]?.label).toBe("Day");
    expect(legend(en, 0, MARCH_3)).toBe("3 Mar");
    const es = options({ xName: "Día", locale: "es-ES" });
    expect(legend(es, 0, MARCH_3)).toBe("3 mar");
    expect(legend(es, 1, 1234.5)).toBe("1234,5");
  });

  it("names lessons by their labels on a chart of lessons", () => {
    const o = options({ x: [1, 2], xName: "Leçon", xLabels: (n) => `L${n}` });
    expect(o.series[0]?.label).toBe("Leçon");
    expect(legend(o, 0, 2)).toBe("L2");
  });
});

describe("one day of data", () => {
  it("widens a range of one value by half a step on each side", () => {
    expect(xRange(MARCH_3, MARCH_3, true)).toEqual([MARCH_3 - DAY / 2, MARCH_3 + DAY / 2]);
    expect(xRange(1, 1, false)).toEqual([0.5, 1.5]);
    expect(xRange(1, 3, false)).toEqual([1, 3]);
    const range = options({ x: [MARCH_3] }).scales?.x?.range;
    if (typeof range !== "function") throw new Error("no x range");
    expect(range(plot, MARCH_3, MARCH_3, "x")).toEqual([MARCH_3 - DAY / 2, MARCH_3 + DAY / 2]);
  });

  it("draws a value with no neighbour as a point: one day, or today's MRR after days without", () => {
    expect(hasLonePoint([null, null, 5])).toBe(true);
    expect(hasLonePoint([4])).toBe(true);
    expect(hasLonePoint([1, null, 3])).toBe(true);
    expect(hasLonePoint([1, 2, null])).toBe(false);
    expect(hasLonePoint([null, null])).toBe(false);
    const points = (o: uPlot.Options) => o.series[1]?.points?.show;
    expect(points(options())).toBeUndefined();
    expect(points(options({ x: [MARCH_3], series: [{ label: "MRR", color: "#000", values: [1200] }] }))).toBe(
      true,
    );
    expect(points(options({ series: [{ label: "MRR", color: "#000", values: [null, null, 1200] }] }))).toBe(
      true,
    );
    // bars draw one value by themselves
    const bars = options({
      x: [MARCH_3],
      series: [{ label: "Minutes", color: "#000", values: [3], bars: true }],
    });
    expect(points(bars)).toBeUndefined();
  });
});
