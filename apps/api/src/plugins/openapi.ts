import swagger, { type SwaggerTransformObject } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import "@parlons/contract";
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from "fastify-type-provider-zod";
import { globalRegistry } from "zod/v4/core";
import { headOperationId } from "../lib/operations";

type Operation = {
  operationId?: string;
  summary?: string;
  responses?: Record<string, { description?: string }>;
  [key: string]: unknown;
};
type PathItem = Record<string, Operation>;
type OpenApiObject = {
  paths?: Record<string, PathItem>;
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
};

/** What each status means, in the responses that say nothing more (the `Error` envelope's). */
const STATUS_TEXT: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "202": "Accepted",
  "206": "Partial content (a Range request)",
  "302": "Redirect",
  "304": "Not modified (the ETag or date sent still holds)",
  "400": "Bad request: a malformed URL, path parameter or JSON body",
  "401": "Unauthenticated: no access token, or an invalid, expired or revoked one",
  "403": "Forbidden: signed in without the right to do this",
  "404": "Not found (or not yours to see)",
  "409": "Conflict with the current state (already exists, in use, already done)",
  "413": "Request body too large",
  "415": "Unsupported content type",
  "416": "Range not satisfiable",
  "422": "Validation failed: `errors` lists the messages of each field",
  "429": "Too many requests: try again later",
  "502": "The payment provider failed to answer",
  "503": "Not ready",
};

/**
 * The contract's named schemas as the API loaded them. The server-rendered pages' bundle holds its
 * own copy of the contract: when a page that uses one of its schemas renders, that copy names its
 * schemas in zod's global registry too, and the registry keeps the last of each name, so two
 * schemas would share a name in the document. The API documents its own: the names taken now
 * (before any page renders), every other metadata (descriptions, examples) read from the
 * registry itself.
 */
const apiSchemas: typeof globalRegistry = Object.assign(Object.create(globalRegistry), {
  _idmap: new Map(globalRegistry._idmap),
});
const jsonSchemaTransform = createJsonSchemaTransform({ schemaRegistry: apiSchemas });
const jsonSchemaTransformObject = createJsonSchemaTransformObject({ schemaRegistry: apiSchemas });

/**
 * The document as built, then: the named schemas of the zod registry (`Error`, the recursive
 * `MenuModule`) as components, and the HEAD of a route declared as GET and HEAD as its own
 * operation (`getLessonAudio` → `headLessonAudio`), for the names must be unique.
 */
const finishDocument: SwaggerTransformObject = (document) => {
  const withComponents = jsonSchemaTransformObject(document) as unknown as OpenApiObject;
  for (const item of Object.values(withComponents.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === "Default Response" && STATUS_TEXT[status])
          response.description = STATUS_TEXT[status];
      }
    }
    const get = item.get;
    const head = item.head;
    if (get && head && head === get && get.operationId) {
      item.head = {
        ...get,
        operationId: headOperationId(get.operationId),
        summary: `${get.summary ?? get.operationId} (headers only)`,
      };
    }
  }
  // the registry gives each named schema as read and as written: keep the ones in use
  const schemas = withComponents.components?.schemas ?? {};
  const text = JSON.stringify(withComponents.paths);
  for (const name of Object.keys(schemas)) {
    const ref = `"#/components/schemas/${name}"`;
    const usedElsewhere = Object.entries(schemas).some(
      ([other, schema]) => other !== name && JSON.stringify(schema).includes(ref),
    );
    if (!text.includes(ref) && !usedElsewhere) delete schemas[name];
  }
  return withComponents as ReturnType<SwaggerTransformObject>;
};

/** The OpenAPI document built from the route schemas: UI at /api/docs, JSON at /api/docs/json. */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Parlons API",
          version: "1.0.0",
          description:
            "Language-learning audio courses: accounts, courses, lessons, plans, payments. Errors share one envelope (`Error`); signed-in routes take the access token of `POST /api/v1/user/authenticate` as a Bearer token.",
          license: { name: "Proprietary", identifier: "LicenseRef-Parlons" },
        },
        // paths start with /api: the document describes the server that serves it
        servers: [{ url: "/", description: "This Parlons server" }],
        components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
      },
      transform: jsonSchemaTransform,
      transformObject: finishDocument,
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
