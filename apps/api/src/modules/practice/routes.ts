import {
  practiceResultBody,
  practiceResultResponse,
  practiceSessionQuery,
  practiceSessionResponse,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { dayStartOf } from "../../lib/day-start";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import type { Reviewer } from "../review/service";

const tags = ["practice"];
const base = "/v1/practice";

/** Exercises from the learner's deck and their results. Every card is the caller's own. */
export default async function practiceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { practice, principals } = app.deps.services;
  const { clock } = app.deps;
  const signedIn = { access: access.signedIn };

  async function reviewerOf(request: FastifyRequest): Promise<Reviewer> {
    const principal = principalOf(request);
    return { principal, access: await principals.accessOf(principal) };
  }

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
    async (request) => ({
      data: await practice.session(
        await reviewerOf(request),
        request.query,
        dayStartOf(request.query.day_start, clock()),
      ),
    }),
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
    async (request) => ({
      data: await practice.submit(
        await reviewerOf(request),
        request.body,
        dayStartOf(request.body.day_start, clock()),
      ),
    }),
  );
}
