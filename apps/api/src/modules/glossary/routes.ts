import {
  glossaryEntryBody,
  glossaryEntryParams,
  glossaryEntryResponse,
  glossaryImportBody,
  glossaryImportResponse,
  glossaryListQuery,
  glossaryListResponse,
  glossaryParams,
  glossarySuggestionsQuery,
  glossarySuggestionsResponse,
  messageResponse,
  PERMISSIONS,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { suggestEntries } from "./suggestions";

const tags = ["glossary"];
const base = "/v1/courses/:courseId/glossary";

/** A course's glossary, for the staff who write its lessons: entries, a CSV import, suggestions from its lines. */
export default async function glossaryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { glossary, courses, lessons, dictionaries } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.lessonsManage) };

  app.get(
    base,
    {
      config: manage,
      schema: {
        tags,
        summary: "The course's glossary, by term (q searches terms and French meanings)",
        params: glossaryParams,
        querystring: glossaryListQuery,
        response: { 200: glossaryListResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const course = await courses.get(request.params.courseId);
      return { data: await glossary.list(course.id, request.query) };
    },
  );

  app.post(
    base,
    {
      config: manage,
      schema: {
        tags,
        summary: "Add an entry (409 when the term is there already)",
        params: glossaryParams,
        body: glossaryEntryBody,
        response: { 201: glossaryEntryResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const course = await courses.get(request.params.courseId);
      const entry = await glossary.create(course.id, request.body);
      reply.status(201);
      return { message: "Entry added", data: { entry } };
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: "Change an entry",
        params: glossaryEntryParams,
        body: glossaryEntryBody,
        response: { 200: glossaryEntryResponse, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      data: { entry: await glossary.update(request.params.courseId, request.params.id, request.body) },
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: "Remove an entry",
        params: glossaryEntryParams,
        response: { 200: messageResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      await glossary.remove(request.params.courseId, request.params.id);
      return { message: "Entry removed" };
    },
  );

  app.post(
    `${base}/import`,
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Import a CSV (term, meaning_fr, meaning_en, note): good lines are kept, bad ones reported by number",
        params: glossaryParams,
        body: glossaryImportBody,
        response: { 200: glossaryImportResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const course = await courses.get(request.params.courseId);
      return { data: await glossary.importCsv(course.id, request.body.csv) };
    },
  );

  app.get(
    `${base}/suggestions`,
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Words of the course's lines not in its glossary yet, with a meaning drawn from the dictionary or the lines' translations",
        params: glossaryParams,
        querystring: glossarySuggestionsQuery,
        response: { 200: glossarySuggestionsResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const course = await courses.get(request.params.courseId);
      const list = await lessons.list(
        course.id,
        { userId: principalOf(request).id, staff: true, access: "all" },
        { activeOnly: false },
      );
      const suggestions = await suggestEntries({
        lines: list.flatMap((lesson) => lesson.cues),
        language: course.targetLanguage,
        known: await glossary.keysOf(course.id),
        dictionaries,
        limit: request.query.limit,
      });
      return { data: { suggestions } };
    },
  );
}
