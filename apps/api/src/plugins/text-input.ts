import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { badRequest } from "../lib/errors";

/** Whether a string anywhere in a parsed input (params, query, JSON body) holds a NUL character. */
export function holdsNul(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (value.includes("\u0000")) return true;
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes("\u0000")) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL text cannot hold U+0000: a query with one fails in the driver (a 500). Inputs that
 * carry it are refused with 400 before validation, for every route of the scope.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook("preValidation", async (request: FastifyRequest) => {
      if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body))
        throw badRequest("Text must not contain the NUL character");
    });
  },
  { name: "text-input" },
);
