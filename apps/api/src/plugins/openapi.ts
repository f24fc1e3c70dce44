import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** The OpenAPI document built from the route schemas: UI at /api/docs, JSON at /api/docs/json. */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: "Parlons API",
          version: "1.0.0",
          description: "Language-learning audio courses: accounts, courses, lessons, plans, payments.",
        },
        components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: "/api/docs",
      // the UI's own page carries inline script: let it, on its routes only
      staticCSP: true,
      transformStaticCSP: (header) =>
        header.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
    });
  },
  { name: "openapi" },
);
