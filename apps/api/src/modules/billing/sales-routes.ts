import { PERMISSIONS, salesCsvQuery, salesReportQuery, salesReportResponse } from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { access } from "../../plugins/access";

const tags = ["billing"];

/** The staff's view of sales (customer-plans.manage): the report over ?from=&to= and its tables as CSV. */
export default async function salesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { sales, courses } = app.deps.services;
  const staff = { access: access.permission(PERMISSIONS.customerPlansManage) };
  const titles = async (ids: string[]) =>
    new Map(
      (ids.length ? await courses.findByIds(ids) : []).map((c) => [
        c.id,
        { titleFr: c.titleFr, titleEn: c.titleEn },
      ]),
    );

  app.get(
    "/v1/sales",
    {
      config: staff,
      schema: {
        tags,
        summary:
          "Orders, refunds, coupon uses and revenue by currency, offer and course over ?from=&to= (UTC days), refunds netted",
        querystring: salesReportQuery,
        response: { 200: salesReportResponse },
      },
    },
    async (request) => ({ data: { report: await sales.report(request.query, titles) } }),
  );

  app.get(
    "/v1/sales/csv",
    {
      config: staff,
      schema: {
        tags,
        summary:
          "One table of the sales report (?table=orders|refunds|plans|courses|coupons) as CSV, every row",
        querystring: salesCsvQuery,
        response: { 200: z.string().describe("text/csv, a header line then one line a row") },
      },
    },
    async (request, reply) => {
      const { from, to, table } = request.query;
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="parlons-sales-${table}-${from}-${to}.csv"`)
        .header("cache-control", "no-store")
        .send(await sales.csv(request.query, titles));
    },
  );
}
