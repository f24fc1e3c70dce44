import {
  courseIdParams,
  doneCustomerBody,
  doneCustomerHeaders,
  doneCustomerResponse,
  lessonBody,
  lessonColumnBody,
  lessonCuesBody,
  lessonCuesResponse,
  lessonDeleteResponse,
  lessonLinksBody,
  lessonListResponse,
  lessonParams,
  lessonResponse,
  lessonUpdateBody,
  PERMISSIONS,
  uploadResponse,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notFound } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { uploadFromRequest } from "../../plugins/uploads";
import { changedFields } from "../audit/policy";
import { canSeeCourse } from "../courses/policy";
import { accessToCourse, mayOpen, refusal } from "../entitlement/policy";
import { linesChange, presentCue } from "./cues";
import { isLessonStaff, type LessonViewer } from "./policy";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(403, 404, 409);
const tags = ["lessons"];
const base = "/v1/courses/:courseId/lessons";

export default async function lessonRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { courses, lessons, audit, review, certificates, principals } = app.deps.services;

  async function viewerOf(request: FastifyRequest): Promise<LessonViewer> {
    const principal = request.principal;
    return {
      userId: principal?.id ?? null,
      staff: isLessonStaff(principal),
      access: await principals.accessOf(principal),
    };
  }

  async function visibleCourse(request: FastifyRequest, courseId: string) {
    const course = await courses.get(courseId);
    if (!canSeeCourse(request.principal, course)) throw notFound("Course");
    return course;
  }

  /**
   * Learners (and visitors) see the active lessons of an active course, with `locked` for their plan.
   * Kept per reader until the course, its lessons, the settings, the reader (plan, roles) or their
   * progress change, and for one window of the signed audio URLs at most (the signer rounds
   * expiries to MEDIA_URL_TTL, so URLs are the same within a window); answered before routing
   * when the reader and the list are in memory (the hottest signed-in read: every course page and
   * player).
   */
  async function listFor(request: FastifyRequest, courseId: string, learnerView: boolean) {
    const viewer = await viewerOf(request);
    const course = await courses.findByRef(courseId);
    if (!course || !canSeeCourse(request.principal, course)) throw notFound("Course");
    const activeOnly = learnerView || !viewer.staff;
    const list = await lessons.list(course.id, viewer, { activeOnly, pace: course });
    return { data: { lessons: list, access: accessToCourse(viewer.access, course.id) } };
  }
  const urlWindowMs = app.deps.config.media.urlTtl * 1000;
  const listConfig = {
    access: access.publicViewer,
    keep: {
      per: "reader",
      droppedBy: ["courses", "settings"],
      droppedByReader: ["progress"],
      period: () => Math.floor(Date.now() / urlWindowMs),
      beforeRouting: true,
      name: "lessons",
    },
  } as const;
  const listSchema = {
    tags,
    params: courseIdParams,
    response: { 200: lessonListResponse, ...errors },
  };
  app.get(base, { config: listConfig, schema: listSchema }, (request) =>
    listFor(request, request.params.courseId, false),
  );
  // the spec's client lists the active lessons with a POST: the learner's view, even for staff
  app.post(`${base}/active`, { config: listConfig, schema: listSchema }, (request) =>
    listFor(request, request.params.courseId, true),
  );

  app.post(
    `${base}/done-customer`,
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        params: courseIdParams,
        headers: doneCustomerHeaders,
        body: doneCustomerBody,
        response: { 200: doneCustomerResponse, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const course = await visibleCourse(request, request.params.courseId);
      const lesson = await lessons.get(course.id, request.body.lesson_id);
      const viewer = await viewerOf(request);
      const pace = await lessons.paceLockOf(course.id, course, viewer, lesson.id);
      const verdict = mayOpen(viewer, lesson, course, pace);
      if (!verdict.open) throw refusal(verdict);
      const progress = await lessons.saveProgress(
        principal.id,
        lesson,
        request.body,
        request.headers["idempotency-key"],
      );
      // a lesson done puts its lines in the learner's review deck (once: cards are unique per line)
      if (request.body.done === true) await review.addLesson(principal.id, lesson.id);
      // the last lesson done issues the course's certificate (once: unique per learner and course)
      const certificate =
        request.body.done === true ? await certificates.issueIfComplete(principal.id, course.id) : null;
      return {
        data: {
          certificate: certificate ? { id: certificate.id, code: certificate.code } : null,
          progress: {
            lesson_id: lesson.id,
            ...(lessons.presentProgress(progress) as NonNullable<ReturnType<typeof lessons.presentProgress>>),
          },
        },
      };
    },
  );

  // ---- staff ----
  const manage = { access: access.permission(PERMISSIONS.lessonsManage) };
  const staffViewer = (request: FastifyRequest): LessonViewer => ({
    userId: principalOf(request).id,
    staff: true,
    access: "all",
  });

  app.post(
    base,
    {
      config: manage,
      schema: {
        tags,
        params: courseIdParams,
        body: lessonBody,
        response: { 201: lessonResponse, ...errors },
      },
    },
    async (request, reply) => {
      const course = await courses.get(request.params.courseId);
      const lesson = await lessons.present(
        await lessons.create(course.id, request.body),
        staffViewer(request),
      );
      await audit.record({
        actor: principalOf(request),
        action: "lessons.create",
        target: { type: "lesson", id: lesson.id, label: lesson.title_fr },
        after: lesson,
      });
      reply.status(201);
      return { message: "Lesson created", data: { lesson } };
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        params: lessonParams,
        body: lessonUpdateBody,
        response: { 200: lessonResponse, ...errors },
      },
    },
    async (request) => {
      const { courseId, id } = request.params;
      const before = await lessons.present(await lessons.get(courseId, id), staffViewer(request));
      const lesson = await lessons.present(
        await lessons.update(courseId, id, request.body),
        staffViewer(request),
      );
      const changed = changedFields(before, lesson);
      if (changed) {
        await audit.record({
          actor: principalOf(request),
          action: "lessons.update",
          target: { type: "lesson", id, label: lesson.title_fr },
          ...changed,
        });
      }
      return { message: "Lesson updated", data: { lesson } };
    },
  );

  app.get(
    `${base}/:id/cues`,
    {
      config: manage,
      schema: { tags, params: lessonParams, response: { 200: lessonCuesResponse, ...errors } },
    },
    async (request) => {
      const lesson = await lessons.get(request.params.courseId, request.params.id);
      const cues = (await lessons.cuesOf([lesson.id])).get(lesson.id) ?? [];
      return { data: { cues: cues.map(presentCue) } };
    },
  );

  app.put(
    `${base}/:id/cues`,
    {
      config: manage,
      schema: {
        tags,
        params: lessonParams,
        body: lessonCuesBody,
        response: { 200: lessonCuesResponse, ...errors },
      },
    },
    async (request) => {
      const { courseId, id } = request.params;
      const lesson = await lessons.get(courseId, id);
      const before = ((await lessons.cuesOf([lesson.id])).get(lesson.id) ?? []).map(presentCue);
      const cues = (await lessons.replaceCues(courseId, id, request.body.cues)).map(presentCue);
      const change = linesChange(before, cues);
      if (change) {
        await audit.record({
          actor: principalOf(request),
          action: "lessons.lines",
          target: { type: "lesson", id, label: lesson.titleFr },
          ...change,
        });
      }
      return { message: "Lines saved", data: { cues } };
    },
  );

  app.put(
    `${base}/update-by-column/:id`,
    {
      config: manage,
      schema: {
        tags,
        params: lessonParams,
        body: lessonColumnBody,
        response: { 200: lessonResponse, ...errors },
      },
    },
    async (request) => {
      const { courseId, id } = request.params;
      const { column, value } = request.body;
      const before = await lessons.get(courseId, id);
      const row = await lessons.updateColumn(courseId, id, request.body);
      if (before[column] !== value) {
        // the publish switch of the staff list says so in the log; the other columns are edits
        const action =
          column === "active" ? (value ? "lessons.publish" : "lessons.unpublish") : "lessons.update";
        await audit.record({
          actor: principalOf(request),
          action,
          target: { type: "lesson", id, label: row.titleFr },
          before: { [column]: before[column] },
          after: { [column]: value },
        });
      }
      return {
        message: "Lesson updated",
        data: { lesson: await lessons.present(row, staffViewer(request)) },
      };
    },
  );

  app.put(
    `${base}/update-links/:id`,
    {
      config: manage,
      schema: {
        tags,
        params: lessonParams,
        body: lessonLinksBody,
        response: { 200: lessonResponse, ...errors },
      },
    },
    async (request) => {
      const { courseId, id } = request.params;
      const before = await lessons.get(courseId, id);
      const row = await lessons.updateLinks(courseId, id, request.body.links);
      const changed = changedFields({ links: before.links }, { links: row.links });
      if (changed) {
        await audit.record({
          actor: principalOf(request),
          action: "lessons.update",
          target: { type: "lesson", id, label: row.titleFr },
          ...changed,
        });
      }
      return { message: "Links updated", data: { lesson: await lessons.present(row, staffViewer(request)) } };
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        params: lessonParams,
        response: { 200: lessonDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const before = await lessons.present(
        await lessons.get(request.params.courseId, request.params.id),
        staffViewer(request),
      );
      await lessons.delete(request.params.courseId, request.params.id);
      await audit.record({
        actor: principalOf(request),
        action: "lessons.delete",
        target: { type: "lesson", id: request.params.id },
        before,
      });
      return { message: "Lesson deleted", data: { id: request.params.id } };
    },
  );

  app.post(
    `${base}/file/upload`,
    {
      config: manage,
      schema: {
        tags,
        params: courseIdParams,
        consumes: ["multipart/form-data"],
        response: { 200: uploadResponse, ...errors },
      },
    },
    async (request) => {
      await courses.get(request.params.courseId);
      return { message: "upload successfully.", data: await uploadFromRequest(app, request) };
    },
  );
}
