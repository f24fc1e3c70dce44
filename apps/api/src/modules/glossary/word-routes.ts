import {
  lessonWordParams,
  wordAddBody,
  wordAddResponse,
  wordCountsResponse,
  wordLookupQuery,
  wordLookupResponse,
  wordStatusesQuery,
  wordStatusesResponse,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import type { Reviewer } from "../review/service";

const tags = ["words"];
/** Word lookups a learner may make in a minute. */
export const LOOKUPS_PER_MINUTE = 60;

/** A learner's words: looked up in a lesson they may open, added to their deck, coloured and counted. */
export default async function wordRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { words, wordCards, principals } = app.deps.services;
  const signedIn = { access: access.signedIn };

  async function reviewerOf(request: FastifyRequest): Promise<Reviewer> {
    const principal = principalOf(request);
    return { principal, access: await principals.accessOf(principal) };
  }

  app.get(
    "/v1/lessons/:lessonId/words/lookup",
    {
      config: {
        ...signedIn,
        // a learner taps a few words a minute; a script reading the whole glossary and dictionary
        // through this route is held to one a second, per account (counted once signed in)
        rateLimit: {
          max: LOOKUPS_PER_MINUTE,
          timeWindow: 60_000,
          hook: "preHandler" as const,
          keyGenerator: (request: FastifyRequest) => `words|${principalOf(request).id}`,
        },
      },
      schema: {
        tags,
        summary:
          "The meanings of a word of the lesson's lines: the course's glossary, then any installed dictionary",
        params: lessonWordParams,
        querystring: wordLookupQuery,
        response: { 200: wordLookupResponse, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({
      data: await words.lookup(await reviewerOf(request), request.params.lessonId, request.query.word),
    }),
  );

  app.post(
    "/v1/lessons/:lessonId/words",
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Add a word of one of the lesson's lines to the learner's review deck",
        params: lessonWordParams,
        body: wordAddBody,
        response: { 200: wordAddResponse, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({
      data: await words.add(await reviewerOf(request), request.params.lessonId, request.body),
    }),
  );

  app.get(
    "/v1/words",
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The learner's words in a language, learning or known (any other word is new)",
        querystring: wordStatusesQuery,
        response: { 200: wordStatusesResponse, ...errorResponses() },
      },
    },
    async (request) => ({
      data: {
        language: request.query.language,
        words: await wordCards.statuses(principalOf(request).id, request.query.language),
      },
    }),
  );

  app.get(
    "/v1/words/counts",
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The learner's known and learning words per language",
        response: { 200: wordCountsResponse, ...errorResponses() },
      },
    },
    async (request) => ({ data: { languages: await wordCards.counts(principalOf(request).id) } }),
  );
}
