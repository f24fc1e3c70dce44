import { splitScript } from "@parlons/aligner/script";
import {
  ALIGN_LANGUAGES,
  type AlignLanguageCode,
  alignBody,
  alignmentJobResponse,
  CUE_LIMITS,
  latestAlignmentResponse,
  lessonParams,
  PERMISSIONS,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError, conflict } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { learnerLimits } from "../../plugins/learner-limits";
import { presentJob } from "./queue";

const tags = ["lessons"];
const path = "/v1/courses/:courseId/lessons/:id/align";

const supported = (lang: string): lang is AlignLanguageCode =>
  (ALIGN_LANGUAGES as readonly string[]).includes(lang);

export default async function alignmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { alignment, courses, lessons } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.lessonsManage) };

  app.post(
    path,
    {
      config: { ...manage, rateLimit: learnerLimits.alignment },
      schema: {
        tags,
        summary: "Align the lesson's script to its audio (a job: poll its status)",
        description:
          "Splits the script into lines, queues an alignment and answers 202 at once. The alignment runs " +
          "in a worker thread; `GET …/align` shows its progress, then the lines it wrote (each with its " +
          "confidence, doubtful ones flagged) and the mode that ran: `signal` (audio analysis alone) or " +
          "`synthesis` (espeak-ng as a reference voice, when installed). `merge` keeps the lines whose " +
          "text is unchanged (id, translations, review cards); `replace` makes every line new.",
        params: lessonParams,
        body: alignBody,
        response: { 202: alignmentJobResponse, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { courseId, id } = request.params;
      const course = await courses.get(courseId);
      const lesson = await lessons.get(course.id, id);
      if (!lesson.audioPath)
        throw conflict("The lesson has no audio: upload its MP3 first", "LESSON_AUDIO_MISSING");
      const lang = request.body.lang ?? (supported(course.targetLanguage) ? course.targetLanguage : "fr");
      const lines = splitScript(request.body.script, lang, request.body.split);
      if (lines.length === 0)
        throw new AppError(422, "SCRIPT_EMPTY", "The script has no line", {
          script: ["The script is empty"],
        });
      const max = CUE_LIMITS.perLesson;
      if (lines.length > max)
        throw new AppError(422, "SCRIPT_TOO_LONG", `A lesson has at most ${max} lines`, {
          script: [`At most ${max} lines`],
        });
      const job = await alignment.enqueue({
        lessonId: lesson.id,
        apply: request.body.apply,
        lang,
        script: lines,
      });
      reply.status(202);
      return { message: "Alignment queued", data: { job: presentJob(job) } };
    },
  );

  app.get(
    path,
    {
      config: manage,
      schema: {
        tags,
        summary: "The lesson's latest alignment: its status, progress and result",
        params: lessonParams,
        response: { 200: latestAlignmentResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const lesson = await lessons.get(request.params.courseId, request.params.id);
      const job = await alignment.latest(lesson.id);
      return { data: { job: job ? presentJob(job) : null } };
    },
  );
}
