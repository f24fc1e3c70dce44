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
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ChangeTopic } from "../../lib/change-bus";
import { notFound } from "../../lib/errors";
import { createResponseCache, JSON_TYPE, jsonBody, sendCached } from "../../lib/response-cache";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
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

/** What a learner's progress answer depends on (its kept copy is dropped when one changes). */
const PROGRESS_TOPICS = (userId: string): ChangeTopic[] => [
  "courses",
  "settings",
  "roles",
  "plans",
  `user:${userId}`,
  `progress:${userId}`,
];

export default async function courseRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { courses, lessons, principals, audit } = app.deps.services;

  // ---- public reads: from memory (lib/response-cache.ts), computed again when courses or lessons change ----
  const { publicCache } = app.deps;
  const progressAnswers = createResponseCache({ changes: app.deps.changes, maxEntries: 10_000, rewarm: 0 });
  app.addHook("onClose", async () => progressAnswers.close());
  const progressBody = jsonBody(customerProgressResponse, "/v1/courses/customer/progress");
  const urlWindowMs = app.deps.config.media.urlTtl * 1000;
  const listBody = jsonBody(courseListResponse, "/v1/courses/active");
  const courseBodyOf = jsonBody(courseResponse, "/v1/courses/single/:id");

  for (const scope of ["active", "popular"] as const) {
    app.get(
      `/v1/courses/${scope}`,
      {
        config: { access: access.public },
        schema: {
          tags,
          querystring: publicCourseListQuery,
          response: { 200: courseListResponse, ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const key = `courses:${scope}:${JSON.stringify([q.page, q.pageSize, q.target_language ?? null, q.level ?? null, q.search ?? null])}`;
        const answer = await publicCache.get(key, ["courses"], async () =>
          listBody({
            data: await courses.list({
              ...q,
              active: "true",
              ...(scope === "popular" ? { popular: "true" } : {}),
            }),
          }),
        );
        if (!answer) throw notFound("Course");
        publicCache.alias(request.url, key);
        return sendCached(request, reply, answer);
      },
    );
  }

  app.get(
    "/v1/courses/single/:id",
    {
      config: { access: access.publicViewer },
      schema: { tags, params: courseRefParams, response: { 200: courseResponse, ...errors } },
    },
    async (request, reply) => {
      // what everyone may see (active courses) is kept in memory; staff reading an inactive one go to the database
      const ref = request.params.id;
      const key = `courses:single:${ref.toLowerCase()}`;
      const answer = await publicCache.get(key, ["courses"], async () => {
        const row = await courses.findByRef(ref);
        return row?.active ? courseBodyOf({ data: { course: await courses.presentOne(row) } }) : null;
      });
      if (answer) {
        if (!request.principal) publicCache.alias(request.url, key);
        return sendCached(request, reply, answer);
      }
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
      config: { access: access.signedIn },
      schema: {
        tags,
        querystring: customerProgressQuery,
        response: { 200: customerProgressResponse, ...errors },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const weekStart = request.query.week_start ? new Date(request.query.week_start) : startOfWeekUtc();
      const access = await principals.accessOf(principal);
      // kept serialised per learner until their progress, their account, the courses, plans or
      // roles change, and for one window of signed media URLs at most (as the lesson lists are)
      const key = [principal.id, weekStart.toISOString(), access, Math.floor(Date.now() / urlWindowMs)].join(
        ":",
      );
      const topics: ChangeTopic[] = PROGRESS_TOPICS(principal.id);
      const answer = await progressAnswers.get(key, topics, async () => {
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
        return progressBody({
          data: {
            courses: items.flatMap((course) => {
              const overview = overviews.get(course.id);
              return overview ? [{ course, overview }] : [];
            }),
            lessons_done_this_week: doneThisWeek,
            week_start: weekStart.toISOString(),
          },
        });
      });
      if (!answer) throw new Error("the progress answer was not computed");
      // the serialised body, already checked against the response schema by progressBody
      return (reply as FastifyReply).header("content-type", JSON_TYPE).send(answer.body);
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
      const row = await courses.create(request.body);
      reply.status(201);
      return { message: "Course created", data: { course: await courses.presentOne(row) } };
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
      const row = await courses.update(request.params.id, request.body);
      return { message: "Course updated", data: { course: await courses.presentOne(row) } };
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
      const row = await courses.setPopular(request.params.id, request.body?.popular);
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
