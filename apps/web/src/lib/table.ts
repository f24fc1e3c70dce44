import type { Breakpoint } from "antd";

/**
 * Staff tables on a phone show the columns that identify a row and its actions; the others
 * (`responsive: WIDE_ONLY`) appear from the tablet width up, so a row stays readable instead
 * of squeezed.
 */
export const WIDE_ONLY: Breakpoint[] = ["md"];

/**
 * A paged table's pages: the current one, the total from the API, no size changer; with
 * `hideOnSinglePage`, no pager at all while everything fits on one page (a learner's own lists).
 */
export function tablePages(
  page: number,
  pageSize: number,
  total: number | undefined,
  onChange: (page: number) => void,
  options: { hideOnSinglePage?: boolean } = {},
) {
  return { current: page, pageSize, total: total ?? 0, onChange, showSizeChanger: false, ...options };
}
