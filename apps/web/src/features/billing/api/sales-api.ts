import type { SalesReportQuery, SalesReportResponse, SalesTable } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api, apiFile } from "@/lib/api";
import { saveFile } from "@/lib/download";

/** `GET /v1/sales?from=&to=` (customer-plans.manage): orders, refunds, coupon uses and revenue over the period. */
export function salesReportQuery(range: SalesReportQuery) {
  return queryOptions({
    queryKey: ["sales", "report", range] as const,
    queryFn: ({ signal }) =>
      api<SalesReportResponse>("/v1/sales", { query: { ...range }, signal }).then((r) => r.data.report),
  });
}

/** Saves one table of the report over the period as CSV (every row). */
export async function downloadSalesCsv(range: SalesReportQuery, table: SalesTable) {
  const file = await apiFile("/v1/sales/csv", { query: { ...range, table } });
  saveFile(`parlons-sales-${table}-${range.from}-${range.to}.csv`, file);
}
