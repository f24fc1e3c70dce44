import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../lib/errors";

interface ValidationItem {
  instancePath?: string;
  message?: string;
}

function fieldErrors(items: ValidationItem[], context: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const item of items) {
    const field = (item.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".") || context || "body";
    const list = errors[field] ?? [];
    list.push(item.message ?? "Invalid value");
    errors[field] = list;
  }
  return errors;
}

const statusCodes: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  406: "BAD_REQUEST",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  416: "RANGE_NOT_SATISFIABLE",
  422: "VALIDATION_FAILED",
  429: "RATE_LIMITED",
};

/** One error envelope for the whole API: `{ statusCode, code, message, errors? }`; 5xx details stay in the log. */
export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
      if (err instanceof AppError) {
        if (err.headers) reply.headers(err.headers);
        return reply.status(err.statusCode).send({
          statusCode: err.statusCode,
          code: err.code,
          message: err.message,
          ...(err.errors ? { errors: err.errors } : {}),
        });
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        // A malformed path parameter is a bad request; a body or query that breaks the rules is 422.
        const status = err.validationContext === "params" ? 400 : 422;
        return reply.status(status).send({
          statusCode: status,
          code: status === 400 ? "BAD_REQUEST" : "VALIDATION_FAILED",
          message: status === 400 ? "Invalid path parameter" : "Validation failed",
          errors: fieldErrors(err.validation as ValidationItem[], err.validationContext),
        });
      }
      const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err }, "request failed");
        return reply
          .status(status)
          .send({ statusCode: status, code: "INTERNAL_ERROR", message: "Something went wrong" });
      }
      if (status === 429) {
        return reply.status(429).send({ statusCode: 429, code: "RATE_LIMITED", message: err.message });
      }
      return reply.status(status).send({
        statusCode: status,
        code: statusCodes[status] ?? "BAD_REQUEST",
        message:
          err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
            ? "The request body is not valid JSON"
            : err.message,
      });
    });
  },
  { name: "errors" },
);
