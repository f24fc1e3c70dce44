import {
  HANDS_FREE_ITEMS_HEADER,
  HANDS_FREE_MODE_HEADER,
  handsFreeGradesBody,
  handsFreeGradesResponse,
  handsFreePlanResponse,
  handsFreeQuery,
  practiceResultBody,
  practiceResultResponse,
  practiceSessionQuery,
  practiceSessionResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendStoredFile } from "../../lib/deliver";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { deckCaller } from "../../plugins/learner-day";

const tags = ["practice"];
const base = "/v1/practice";

/** Exercises from the learner's deck and their results. Every card is the caller's own. */
export default async function practiceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { practice, handsFree, handsFreeAudio, media } = app.deps.services;
  const { answer, reviewerOf, dayStart } = deckCaller(app);
  const signedIn = { access: access.signedIn };

  app.get(
    `${base}/session`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The day's exercises (dictation, cloze, recall) made from the cards to review now",
        querystring: practiceSessionQuery,
        response: { 200: practiceSessionResponse, ...errorResponses() },
      },
    },
    async (request) => answer(request, request.query, practice.session),
  );

  app.post(
    `${base}/results`,
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "Grade an exercise's answer and the card of its line; a result id sent again changes nothing",
        body: practiceResultBody,
        response: { 200: practiceResultResponse, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => answer(request, request.body, practice.submit),
  );

  app.get(
    `${base}/hands-free`,
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "The hands-free daily session: each line to review now as an echo or a recall, with its audio segment, prompt and pauses",
        querystring: handsFreeQuery,
        response: { 200: handsFreePlanResponse, ...errorResponses() },
      },
    },
    async (request) => answer(request, request.query, handsFree.plan),
  );

  // GET and HEAD: a download manager asks HEAD for the length
  app.route({
    method: ["GET", "HEAD"],
    url: `${base}/hands-free/audio.mp3`,
    config: signedIn,
    schema: {
      tags,
      description: `The hands-free daily session as one MP3 (16 kHz mono, 32 kbit/s) for offline listening: the lines cut from their lessons' audio, the pauses as silence, the recall prompts spoken by the server's synthesizer. Without one (or when it fails), every item is an echo. The header ${HANDS_FREE_MODE_HEADER} says which ran (speech or echo_only), ${HANDS_FREE_ITEMS_HEADER} how many items it holds. Made at the day's first request, then the same file all day (cards graded meanwhile change the in-app session, not this file) as long as every lesson it is cut from still opens for the caller (a plan that ends makes it again without its premium lines); files of past days are deleted. 404 SESSION_EMPTY when nothing is to be practised. Supports Range.`,
      querystring: handsFreeQuery,
      response: {
        200: z.unknown().describe("The MP3's bytes"),
        206: z.unknown().describe("The MP3's bytes"),
        304: z.unknown(),
        ...errorResponses(404, 416),
      },
    },
    handler: async (request, reply) => {
      const audio = await handsFreeAudio.audio(
        await reviewerOf(request),
        request.query,
        dayStart(request.query),
      );
      const day = audio.day.toISOString().slice(0, 10);
      return sendStoredFile(request, reply, {
        storage: media.storage,
        key: audio.key,
        mime: "audio/mpeg",
        cacheControl: "private, no-cache",
        headers: {
          [HANDS_FREE_MODE_HEADER]: audio.mode,
          [HANDS_FREE_ITEMS_HEADER]: String(audio.items),
          "content-disposition": `attachment; filename="parlons-${day}.mp3"`,
        },
      });
    },
  });

  app.post(
    `${base}/hands-free/grades`,
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "Grade the cards of a hands-free session (one tap per item, or all good); a grade id sent again changes nothing",
        body: handsFreeGradesBody,
        response: { 200: handsFreeGradesResponse, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => answer(request, request.body, handsFree.grade),
  );
}
