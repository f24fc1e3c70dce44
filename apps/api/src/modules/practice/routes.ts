import {
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
  const { practice } = app.deps.services;
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
}
