import {
  habitSettingsBody,
  habitSummaryResponse,
  listeningBody,
  listeningResponse,
  studySessionBody,
  studySessionResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

const tags = ["habit"];

/** The caller's daily habit: summary, settings, and the player's listening reports. */
export default async function habitRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { habit } = app.deps.services;
  const signedIn = { access: access.signedIn };

  app.get(
    "/v1/habit",
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Today's progress toward the daily goal, the streak and the last seven days",
        response: { 200: habitSummaryResponse, ...errorResponses() },
      },
    },
    async (request) => ({ data: await habit.summary(principalOf(request).id) }),
  );

  app.put(
    "/v1/habit/settings",
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Set the daily goal, the time zone or the reminder hour",
        body: habitSettingsBody,
        response: { 200: habitSummaryResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const userId = principalOf(request).id;
      await habit.updateSettings(userId, request.body);
      return { data: await habit.summary(userId) };
    },
  );

  app.post(
    "/v1/habit/listening",
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Seconds played per lesson and minute; a report sent again never counts twice",
        body: listeningBody,
        response: { 200: listeningResponse, ...errorResponses() },
      },
    },
    async (request) => ({
      data: { recorded: await habit.recordListening(principalOf(request).id, request.body) },
    }),
  );

  app.post(
    "/v1/habit/sessions",
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "A finished review or exercise session (items, right answers): counts once per id; ten items or more make a study day",
        body: studySessionBody,
        response: { 200: studySessionResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const userId = principalOf(request).id;
      const recorded = await habit.recordSession(userId, request.body);
      return { data: { recorded, summary: await habit.summary(userId) } };
    },
  );
}
