// Pure parts of the benchmark: targets, the table of figures, the comparison of two runs.
// No I/O here (unit-tested by table.test.mjs).

/**
 * A target is a small expression over a row, e.g. "ratio>=0.85", "ours<=3000", "p95<=50".
 * Answers true or false, or null when the row has no value to judge (or no target).
 */
export function targetMet(row) {
  if (!row.target) return null;
  const m = /^(ours|reference|ratio|p95|p99|non2xx)\s*(>=|<=)\s*(-?[\d.]+)$/.exec(row.target.trim());
  if (!m) return null;
  const value = row[m[1]];
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  const limit = Number(m[3]);
  return m[2] === ">=" ? value >= limit : value <= limit;
}

/** The target as printed: "ratio ≥ 0.85". */
function formatTarget(target) {
  if (!target) return "";
  return target.replace(/\s*>=\s*/, " ≥ ").replace(/\s*<=\s*/, " ≤ ");
}

/** A number as printed: grouped thousands above 100, otherwise up to 2 decimals. */
function formatNumber(value, digits) {
  if (value === null || value === undefined) return "–";
  if (typeof value !== "number") return String(value);
  if (Number.isNaN(value)) return "–";
  const d = digits ?? (Number.isInteger(value) || Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return value.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
}

const withUnit = (value, unit) =>
  value === null || value === undefined ? "–" : `${formatNumber(value)} ${unit ?? ""}`.trim();
const metMark = (met) => (met === null ? "" : met ? "yes" : "NO");

/** Lays out rows of strings as a Markdown table (readable in a terminal and pasteable into docs). */
function markdownTable(header, lines) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i] ?? "").length)));
  const fmt = (cells) => `| ${cells.map((c, i) => String(c ?? "").padEnd(widths[i])).join(" | ")} |`;
  return [fmt(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...lines.map(fmt)].join("\n");
}

/** One table of every figure of a run. */
export function formatTable(rows) {
  const header = [
    "figure",
    "ours",
    "reference",
    "ratio",
    "p95 ms",
    "p99 ms",
    "non-2xx",
    "target",
    "met",
    "note",
  ];
  const lines = rows.map((r) => [
    r.figure,
    withUnit(r.ours, r.unit),
    withUnit(r.reference, r.unit),
    r.ratio === null || r.ratio === undefined ? "–" : `${formatNumber(r.ratio, 2)}×`,
    formatNumber(r.p95),
    formatNumber(r.p99),
    formatNumber(r.non2xx, 0),
    formatTarget(r.target),
    metMark(targetMet(r)),
    r.note ?? "",
  ]);
  return markdownTable(header, lines);
}

/** Two runs side by side, matched by figure name (a figure missing on one side shows "–"). */
export function formatCompare(a, b) {
  const names = [...new Set([...a.rows.map((r) => r.figure), ...b.rows.map((r) => r.figure)])];
  const find = (run, name) => run.rows.find((r) => r.figure === name);
  const label = (run) => `${run.commit ?? "?"}${run.database ? ` ${run.database}` : ""}`;
  const header = [
    "figure",
    `ours ${label(a)}`,
    "ratio",
    "p99",
    `ours ${label(b)}`,
    "ratio",
    "p99",
    "change",
    "target",
    "met",
  ];
  const lines = names.map((name) => {
    const x = find(a, name);
    const y = find(b, name);
    const change =
      x?.ours && y?.ours !== null && y?.ours !== undefined
        ? `${formatNumber((y.ours / x.ours) * 100 - 100, 0)} %`
        : "–";
    const target = (y ?? x)?.target;
    return [
      name,
      withUnit(x?.ours, x?.unit),
      x?.ratio === null || x?.ratio === undefined ? "–" : `${formatNumber(x.ratio, 2)}×`,
      formatNumber(x?.p99),
      withUnit(y?.ours, y?.unit),
      y?.ratio === null || y?.ratio === undefined ? "–" : `${formatNumber(y.ratio, 2)}×`,
      formatNumber(y?.p99),
      change,
      formatTarget(target),
      `${x ? metMark(targetMet(x)) || "–" : "–"} → ${y ? metMark(targetMet(y)) || "–" : "–"}`,
    ];
  });
  return markdownTable(header, lines);
}

/** Percentile (0–100) of a list of numbers, nearest-rank; null for an empty list. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** A row with every field present (null where not applicable) and the ratio derived when missing. */
export function normaliseRow(row) {
  const out = {
    figure: row.figure,
    ours: row.ours ?? null,
    reference: row.reference ?? null,
    ratio: row.ratio ?? null,
    p95: row.p95 ?? null,
    p99: row.p99 ?? null,
    non2xx: row.non2xx ?? null,
    unit: row.unit ?? null,
    target: row.target ?? null,
    note: row.note ?? null,
  };
  if (
    out.ratio === null &&
    typeof out.ours === "number" &&
    typeof out.reference === "number" &&
    out.reference > 0
  ) {
    out.ratio = out.ours / out.reference;
  }
  out.met = targetMet(out);
  return out;
}
