import {
  analyticsCourseLinesResponse,
  analyticsQuery,
  analyticsRefreshResponse,
  analyticsResponse,
  PERMISSIONS,
  staffOverviewResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { analyticsCsv } from "./service";

const tags = ["analytics"];

/** Staff analytics (analytics.read): figures over a date range, as JSON or CSV, and a refresh. */
export default async function analyticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { analytics } = app.deps.services;
  const staff = { access: access.permission(PERMISSIONS.analyticsRead) };

  app.get(
    "/v1/analytics",
    {
      config: staff,
      schema: {
        tags,
        summary:
          "Active learners, minutes, funnel, reviews, subscriptions, MRR, churn and attendance over ?from=&to=",
        querystring: analyticsQuery,
        response: { 200: analyticsResponse },
      },
    },
    async (request) => ({ data: { analytics: await analytics.read(request.query) } }),
  );

  app.get(
    "/v1/analytics/overview",
    {
      config: { access: access.permission(PERMISSIONS.dashboardAdmin) },
      schema: {
        tags,
        summary:
          "The staff landing page's figures, counted now: active learners, lessons done this week, sign-ups and revenue this month, MRR",
        description:
          "Each figure is null for a caller without the permission of the page it comes from: active " +
          "learners and lessons done need analytics.read, sign-ups users.read, MRR and revenue " +
          "customer-plans.manage.",
        response: { 200: staffOverviewResponse },
      },
    },
    async (request) => ({
      data: { overview: await analytics.overview(principalOf(request).permissions) },
    }),
  );

  app.get(
    "/v1/analytics/csv",
    {
      config: staff,
      schema: {
        tags,
        summary: "The daily figures of ?from=&to= as CSV",
        querystring: analyticsQuery,
        response: { 200: z.string().describe("text/csv, one line a day") },
      },
    },
    async (request, reply) => {
      const result = await analytics.read(request.query);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="parlons-analytics-${result.from}-${result.to}.csv"`,
        )
        .header("cache-control", "no-store")
        .send(analyticsCsv(result.days));
    },
  );

  app.get(
    "/v1/analytics/courses/:courseId/lines",
    {
      config: staff,
      schema: {
        tags,
        summary:
          "What is hard in a course: each lesson's lines with their grades, failures (Again), Hard and learners, from the roll-up",
        params: z.object({ courseId: z.uuid() }),
        response: { 200: analyticsCourseLinesResponse, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: { lines: await analytics.courseLines(request.params.courseId) } }),
  );

  app.post(
    "/v1/analytics/refresh",
    {
      config: staff,
      schema: {
        tags,
        summary: "Runs the analytics roll-up now (it also runs every ten minutes)",
        response: { 200: analyticsRefreshResponse },
      },
    },
    async () => ({ data: await analytics.rollup() }),
  );
}
