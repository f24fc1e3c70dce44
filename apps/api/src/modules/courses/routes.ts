import {
  courseBody,
  courseDeleteQuery,
  courseDeleteResponse,
  courseListQuery,
  courseListResponse,
  courseOverviewResponse,
  courseRefParams,
  courseResponse,
  courseUpdateBody,
  customerProgressQuery,
  customerProgressResponse,
  idParams,
  PERMISSIONS,
  popularToggleBody,
  publicCourseListQuery,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notFound } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { changedFields } from "../audit/policy";
import type { CoursePace } from "../entitlement/policy";
import { isLessonStaff } from "../lessons/policy";
import type { Principal } from "../users/service";
import { canSeeCourse } from "./policy";

/** The pace of each course for this caller: learners are paced, staff who manage lessons are not. */
function pacesOf(
  principal: Principal,
  rows: readonly ({ id: string } & CoursePace)[],
): Map<string, CoursePace> {
  if (isLessonStaff(principal)) return new Map();
  return new Map(rows.map((r) => [r.id, { dripMode: r.dripMode, dripDays: r.dripDays }]));
}

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(404, 409);
const tags = ["courses"];

/** Monday 00:00 UTC of the current week. */
function startOfWeekUtc(now = new Date()): Date {
  const day = (now.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day));
}

export default async function courseRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { courses, lessons, principals, audit } = app.deps.services;

  // ---- public reads: kept in memory (plugins/kept-reads.ts) until courses or lessons change ----
  const publicRead = { per: "everyone", droppedBy: ["courses"] } as const;
  const urlWindowMs = app.deps.config.media.urlTtl * 1000;

  for (const scope of ["active", "popular"] as const) {
    app.get(
      `/v1/courses/${scope}`,
      {
        config: { access: access.public, keep: publicRead },
        schema: {
          tags,
          querystring: publicCourseListQuery,
          response: { 200: courseListResponse, ...errors },
        },
      },
      async (request) => ({
        data: await courses.list({
          ...request.query,
          active: "true",
          ...(scope === "popular" ? { popular: "true" } : {}),
        }),
      }),
    );
  }

  app.get(
    "/v1/courses/single/:id",
    {
      config: {
        access: access.publicViewer,
        // what everyone may see (active courses) is kept; staff reading an inactive one go to the database
        keep: {
          ...publicRead,
          when: (answer: { data: { course: { active: boolean } } }) => answer.data.course.active,
        },
      },
      schema: { tags, params: courseRefParams, response: { 200: courseResponse, ...errors } },
    },
    async (request) => {
      const row = await courses.findByRef(request.params.id);
      if (!row || !canSeeCourse(request.principal, row)) throw notFound("Course");
      return { data: { course: await courses.presentOne(row) } };
    },
  );

  // ---- learner ----
  app.get(
    "/v1/courses/customer/overview/:id",
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        params: idParams,
        response: { 200: courseOverviewResponse, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await courses.get(request.params.id);
      if (!canSeeCourse(principal, row)) throw notFound("Course");
      const access = await principals.accessOf(principal);
      const paces = pacesOf(principal, [row]);
      const overview = (await lessons.overviews([row.id], principal.id, access, paces)).get(row.id);
      if (!overview) throw notFound("Course");
      return { data: { overview } };
    },
  );

  app.get(
    "/v1/courses/customer/progress",
    {
      config: {
        access: access.signedIn,
        // kept per learner until their progress, their account, the courses, plans or roles change,
        // for the week it counts and one window of signed media URLs at most (as the lesson lists are)
        keep: {
          per: "reader",
          droppedBy: ["courses", "settings"],
          droppedByReader: ["progress"],
          period: () => `${Math.floor(Date.now() / urlWindowMs)}:${startOfWeekUtc().getTime()}`,
        },
      },
      schema: {
        tags,
        querystring: customerProgressQuery,
        response: { 200: customerProgressResponse, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const weekStart = request.query.week_start ? new Date(request.query.week_start) : startOfWeekUtc();
      const access = await principals.accessOf(principal);
      // three round trips whatever the number of courses: what does not depend on the courses
      // runs beside their lookup, the courses come in one query
      const [ids, doneThisWeek] = await Promise.all([
        lessons.coursesInProgress(principal.id),
        lessons.doneSince(principal.id, weekStart),
      ]);
      const rows = (await courses.findByIds(ids)).filter((r) => canSeeCourse(principal, r));
      const [items, overviews] = await Promise.all([
        courses.present(rows),
        lessons.overviews(
          rows.map((r) => r.id),
          principal.id,
          access,
          pacesOf(principal, rows),
        ),
      ]);
      return {
        data: {
          courses: items.flatMap((course) => {
            const overview = overviews.get(course.id);
            return overview ? [{ course, overview }] : [];
          }),
          lessons_done_this_week: doneThisWeek,
          week_start: weekStart.toISOString(),
        },
      };
    },
  );

  // ---- staff ----
  const manage = { access: access.permission(PERMISSIONS.coursesManage) };

  app.get(
    "/v1/courses",
    {
      config: manage,
      schema: {
        tags,
        querystring: courseListQuery,
        response: { 200: courseListResponse, ...errors },
      },
    },
    async (request) => ({ data: await courses.list(request.query) }),
  );

  app.post(
    "/v1/courses",
    {
      config: manage,
      schema: { tags, body: courseBody, response: { 201: courseResponse, ...errors } },
    },
    async (request, reply) => {
      const course = await courses.presentOne(await courses.create(request.body));
      await audit.record({
        actor: principalOf(request),
        action: "courses.create",
        target: { type: "course", id: course.id, label: course.title_fr },
        after: course,
      });
      reply.status(201);
      return { message: "Course created", data: { course } };
    },
  );

  app.put(
    "/v1/courses/:id",
    {
      config: manage,
      schema: {
        tags,
        params: idParams,
        body: courseUpdateBody,
        response: { 200: courseResponse, ...errors },
      },
    },
    async (request) => {
      const before = await courses.presentOne(await courses.get(request.params.id));
      const course = await courses.presentOne(await courses.update(request.params.id, request.body));
      const changed = changedFields(before, course);
      if (changed) {
        await audit.record({
          actor: principalOf(request),
          action: "courses.update",
          target: { type: "course", id: course.id, label: course.title_fr },
          ...changed,
        });
      }
      return { message: "Course updated", data: { course } };
    },
  );

  app.put(
    "/v1/courses/popular-unpopular/:id",
    {
      config: manage,
      schema: {
        tags,
        params: idParams,
        body: popularToggleBody,
        response: { 200: courseResponse, ...errors },
      },
    },
    async (request) => {
      const before = await courses.get(request.params.id);
      const row = await courses.setPopular(request.params.id, request.body?.popular);
      if (row.popular !== before.popular) {
        await audit.record({
          actor: principalOf(request),
          action: "courses.update",
          target: { type: "course", id: row.id, label: row.titleFr },
          before: { popular: before.popular },
          after: { popular: row.popular },
        });
      }
      return {
        message: row.popular ? "Course marked popular" : "Course no longer popular",
        data: { course: await courses.presentOne(row) },
      };
    },
  );

  app.delete(
    "/v1/courses/:id",
    {
      config: manage,
      schema: {
        tags,
        params: idParams,
        querystring: courseDeleteQuery,
        response: { 200: courseDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const before = await courses.presentOne(await courses.get(request.params.id));
      const result = await courses.delete(request.params.id, request.query.force === "true");
      await audit.record({
        actor: principalOf(request),
        action: "courses.delete",
        target: { type: "course", id: request.params.id },
        before,
        after: result,
      });
      return { message: "Course deleted", data: result };
    },
  );
}
