import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
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
      try {
        await app.deps.database.db.execute(sql`select 1`);
        return { status: "ok" as const };
      } catch (err) {
        request.log.error({ err }, "health check: database does not answer");
        return reply.status(503).send({ status: "unavailable" as const });
      }
    },
  );
}
