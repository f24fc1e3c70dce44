import { coursePublishBody, courseResponse, idParams, PERMISSIONS } from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import type { CourseRow } from "./service";

const errors = errorResponses(404, 409, 422);
const tags = ["courses"];

/** What the audit log keeps of a course's publication state. */
const state = (row: CourseRow) => ({ active: row.active, publish_at: row.publishAt?.toISOString() ?? null });

/** `/v1/courses/{id}/publish` and `/unpublish`: a draft goes live (now or at a date), or back. */
export default async function coursePublishRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { courses, audit } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.coursesManage) };

  app.post(
    "/v1/courses/:id/publish",
    {
      config: manage,
      schema: {
        tags,
        summary: "Publish a course now or at a later time, once it has a published lesson with audio",
        params: idParams,
        body: coursePublishBody,
        response: { 200: courseResponse, ...errors },
      },
    },
    async (request) => {
      const at = request.body?.at ? new Date(request.body.at) : null;
      const { before, row, scheduled } = await courses.publish(request.params.id, at);
      const course = await courses.presentOne(row);
      const changed = JSON.stringify(state(before)) !== JSON.stringify(state(row));
      if (changed) {
        await audit.record({
          actor: principalOf(request),
          action: scheduled ? "courses.schedule" : "courses.publish",
          target: { type: "course", id: course.id, label: course.title_fr },
          before: state(before),
          after: state(row),
        });
      }
      return { message: scheduled ? "Course scheduled" : "Course published", data: { course } };
    },
  );

  app.post(
    "/v1/courses/:id/unpublish",
    {
      config: manage,
      schema: {
        tags,
        summary: "Take a course back to a draft (and call off its scheduled publication)",
        params: idParams,
        response: { 200: courseResponse, ...errors },
      },
    },
    async (request) => {
      const { before, row } = await courses.unpublish(request.params.id);
      const course = await courses.presentOne(row);
      if (JSON.stringify(state(before)) !== JSON.stringify(state(row))) {
        await audit.record({
          actor: principalOf(request),
          action: "courses.unpublish",
          target: { type: "course", id: course.id, label: course.title_fr },
          before: state(before),
          after: state(row),
        });
      }
      return { message: "Course unpublished", data: { course } };
    },
  );
}
