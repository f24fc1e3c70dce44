import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The figures behind a chart or a heatmap as a table, folded under "see the figures as a table":
 * the text alternative for screen readers and for anyone who prefers numbers. Its scrolling box is
 * a named region that takes the focus, so a keyboard can scroll it.
 */
export function FiguresTable({
  title,
  columns,
  rows,
  empty,
}: {
  title: string;
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
  /** What the table says when it has no row. */
  empty?: string;
}) {
  const { t } = useTranslation("analytics");
  return (
    <details className="analytics-figure__data">
      <summary>{t("showData")}</summary>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take the focus for the keyboard to scroll it (axe's scrollable-region-focusable) */}
      <section className="analytics-figure__table" aria-label={title} tabIndex={0}>
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && empty ? (
              <tr>
                <td colSpan={columns.length}>{empty}</td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.key}>
                  {row.cells.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells keep their order
                    <td key={i}>{cell}</td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
    </details>
  );
}
