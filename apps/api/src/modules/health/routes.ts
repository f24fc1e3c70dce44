import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { access } from "../../plugins/access";

export default async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/health",
    {
      config: { access: access.public },
      schema: {
        tags: ["health"],
        summary: "200 when the database answers",
        response: {
          200: z.object({ status: z.literal("ok") }),
          503: z.object({ status: z.literal("unavailable") }),
        },
      },
    },
    async (request, reply) => {
      if (await databaseAnswers(request)) return { status: "ok" as const };
      return reply.status(503).send({ status: "unavailable" as const });
    },
  );

  // the load balancer's check: 503 as soon as the process is told to stop (SIGTERM), while it
  // still finishes what it has in hand, so that no new request is sent to it
  app.get(
    "/health/ready",
    {
      config: { access: access.public },
      schema: {
        tags: ["health"],
        summary:
          "200 when this process takes requests; 503 while it drains (stopping) or without its database",
        response: {
          200: z.object({ status: z.literal("ready") }),
          503: z.object({ status: z.enum(["draining", "unavailable"]) }),
        },
      },
    },
    async (request, reply) => {
      if (app.deps.lifecycle.draining) return reply.status(503).send({ status: "draining" as const });
      if (await databaseAnswers(request)) return { status: "ready" as const };
      return reply.status(503).send({ status: "unavailable" as const });
    },
  );

  async function databaseAnswers(request: FastifyRequest): Promise<boolean> {
    try {
      await app.deps.database.db.execute(sql`select 1`);
      return true;
    } catch (err) {
      request.log.error({ err }, "health check: database does not answer");
      return false;
    }
  }
}
