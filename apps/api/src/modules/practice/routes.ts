import {
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
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { deckCaller } from "../../plugins/learner-day";

const tags = ["practice"];
const base = "/v1/practice";

/** Exercises from the learner's deck and their results. Every card is the caller's own. */
export default async function practiceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { practice, handsFree } = app.deps.services;
  const { answer } = deckCaller(app);
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
