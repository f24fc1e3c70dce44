import {
  courseIdParams,
  PERMISSIONS,
  TRANSLATIONS_IMPORT_MAX,
  translationsExportQuery,
  translationsImportBody,
  translationsImportResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { fileToRows, linesToFile } from "./translation-files";

const tags = ["lessons"];
const path = "/v1/courses/:courseId/translations";
const types = { csv: "text/csv", xliff12: "application/xliff+xml", xliff20: "application/xliff+xml" };

/** Staff tools over a whole course: its lines' translations as a file, and back. */
export default async function studioRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { audit, courses, lineTranslations } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.lessonsManage) };

  app.get(
    path,
    {
      config: manage,
      schema: {
        tags,
        summary:
          "The course's lines and their translations as CSV (every language) or XLIFF 1.2 / 2.0 (?lang=)",
        params: courseIdParams,
        querystring: translationsExportQuery,
        response: {
          200: z
            .string()
            .describe("text/csv or application/xliff+xml: id, lesson, start, text and translations"),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const course = await courses.get(request.params.courseId);
      const { format, lang } = request.query;
      const lines = await lineTranslations.linesOf(course.id);
      const body = await linesToFile(lines, format, course.targetLanguage, lang);
      const name = `${course.slug || course.id}-lines${format === "csv" ? "" : `-${lang}`}`;
      return reply
        .header("content-type", `${types[format]}; charset=utf-8`)
        .header(
          "content-disposition",
          `attachment; filename="${name}.${format === "csv" ? "csv" : format === "xliff12" ? "xlf" : "xliff"}"`,
        )
        .header("cache-control", "no-store")
        .send(body);
    },
  );

  app.post(
    path,
    {
      config: manage,
      bodyLimit: TRANSLATIONS_IMPORT_MAX * 2,
      schema: {
        tags,
        summary: "Imports a translations file (CSV or XLIFF) back, matched by line id: every row or none",
        description:
          "Each row names a line of the course by its id and gives its translations (a CSV column per " +
          "language, or an XLIFF file's target language); columns and languages absent are left as they " +
          "are. One transaction: a row naming no line of the course, a line named twice or a text too long " +
          "refuses the whole file with 422 `TRANSLATIONS_INVALID` and the rows' errors; a file that is not " +
          "CSV or XLIFF is 422 `TRANSLATIONS_UNREADABLE`.",
        params: courseIdParams,
        body: translationsImportBody,
        response: { 200: translationsImportResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const course = await courses.get(request.params.courseId);
      const { format, languages, rows } = await fileToRows(request.body.content);
      const { updated, unchanged, changed } = await lineTranslations.apply(course.id, rows);
      if (updated > 0) {
        // like a lesson's lines saved: counts, not the texts (a course's file can be thousands of lines)
        await audit.record({
          actor: principalOf(request),
          action: "courses.translations",
          target: { type: "course", id: course.id, label: course.titleFr },
          after: { format, languages, rows: rows.length, lines: updated, changed },
        });
      }
      return { message: "Translations imported", data: { format, languages, updated, unchanged } };
    },
  );
}
