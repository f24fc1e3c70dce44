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
  proposeLinesBody,
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
const proposePath = "/v1/courses/:courseId/lessons/:id/propose-lines";

const supported = (lang: string): lang is AlignLanguageCode =>
  (ALIGN_LANGUAGES as readonly string[]).includes(lang);

export default async function alignmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { alignment, courses, lessons } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.lessonsManage) };
  /** The course and its lesson, which must have audio to work on (409 LESSON_AUDIO_MISSING). */
  const withAudio = async (params: { courseId: string; id: string }) => {
    const course = await courses.get(params.courseId);
    const lesson = await lessons.get(course.id, params.id);
    if (!lesson.audioPath)
      throw conflict("The lesson has no audio: upload its MP3 first", "LESSON_AUDIO_MISSING");
    return { course, lesson };
  };

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
      const { course, lesson } = await withAudio(request.params);
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

  // the lesson's latest job, an alignment or a proposal of lines, read at either path
  const latest = (at: string, summary: string) =>
    app.get(
      at,
      {
        config: manage,
        schema: {
          tags,
          summary,
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
  latest(path, "The lesson's latest alignment: its status, progress and result");

  app.post(
    proposePath,
    {
      config: { ...manage, rateLimit: learnerLimits.alignment },
      schema: {
        tags,
        summary: "Propose lines at the pauses of the lesson's audio, for audio without a script (a job)",
        description:
          "Queues a job that finds the audio's pauses (250 ms or more) and answers 202 at once; " +
          "`GET …/propose-lines` (or `…/align`) shows its progress, then the lines it wrote. The lines " +
          'have empty text: they work at once as "repeat after me" segments, and staff type or ' +
          "paste their text in the lines editor. `keep` (the default) is refused with 409 " +
          "LESSON_HAS_LINES when the lesson has lines; `replace` replaces them. Audio that cannot be " +
          "decoded fails the job with AUDIO_UNREADABLE, audio without speech with AUDIO_NO_SPEECH.",
        params: lessonParams,
        body: proposeLinesBody,
        response: { 202: alignmentJobResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { course, lesson } = await withAudio(request.params);
      if (
        request.body.apply === "keep" &&
        ((await lessons.cuesOf([lesson.id])).get(lesson.id)?.length ?? 0) > 0
      )
        throw conflict("The lesson has lines: ask to replace them, or remove them first", "LESSON_HAS_LINES");
      const job = await alignment.enqueue({
        kind: "propose",
        lessonId: lesson.id,
        apply: request.body.apply,
        lang: supported(course.targetLanguage) ? course.targetLanguage : "fr",
        script: [],
      });
      reply.status(202);
      return { message: "Proposal of lines queued", data: { job: presentJob(job) } };
    },
  );

  latest(
    proposePath,
    "The lesson's latest job (a proposal of lines or an alignment): status, progress, result",
  );
}
