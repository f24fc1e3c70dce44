import {
  idParams,
  messageResponse,
  reviewAddBody,
  reviewAddResponse,
  reviewDueQuery,
  reviewDueResponse,
  reviewGradeBody,
  reviewGradeResponse,
  reviewStatsQuery,
  reviewStatsResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { deckCaller } from "../../plugins/learner-day";

const tags = ["review"];
const base = "/v1/review";

/** The learner's review deck: cards due, grading, one line added, figures. Every card is the caller's own. */
export default async function reviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { review } = app.deps.services;
  const { reviewerOf, dayStart, answer } = deckCaller(app);
  const signedIn = { access: access.signedIn };

  app.get(
    `${base}/due`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Cards to review now, with the new and due counts",
        querystring: reviewDueQuery,
        response: { 200: reviewDueResponse, ...errorResponses() },
      },
    },
    async (request) =>
      answer(request, request.query, (reviewer, query, day) => review.due(reviewer, query.limit, day)),
  );

  app.post(
    `${base}/grade`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Grade a card (Again, Hard, Good, Easy); a review id sent again changes nothing",
        body: reviewGradeBody,
        response: { 200: reviewGradeResponse, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => answer(request, request.body, review.grade),
  );

  app.post(
    `${base}/cards`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Add one lesson line to the review deck",
        body: reviewAddBody,
        response: { 200: reviewAddResponse, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({ data: await review.addCue(await reviewerOf(request), request.body.cue_id) }),
  );

  app.delete(
    `${base}/cards/:id`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Remove one card from the learner's deck (its grades go with it)",
        params: idParams,
        response: { 200: messageResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      await review.removeCard(principalOf(request).id, request.params.id);
      return { message: "Card removed from the deck" };
    },
  );

  app.get(
    `${base}/stats`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Figures of the review deck",
        querystring: reviewStatsQuery,
        response: { 200: reviewStatsResponse, ...errorResponses() },
      },
    },
    async (request) => {
      return {
        data: {
          stats: await review.stats(await reviewerOf(request), dayStart(request.query)),
        },
      };
    },
  );
}
