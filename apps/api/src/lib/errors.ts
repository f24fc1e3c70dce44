import type { ErrorCode } from "@parlons/contract";

/** An error meant for the client: its status, code and message are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new AppError(400, "BAD_REQUEST", message, errors);
export const validationFailed = (errors: Record<string, string[]>, message = "Validation failed") =>
  new AppError(422, "VALIDATION_FAILED", message, errors);
export const unauthenticated = (message = "Authentication required", code: ErrorCode = "UNAUTHENTICATED") =>
  new AppError(401, code, message);
export const forbidden = (message = "You are not allowed to do this", code: ErrorCode = "FORBIDDEN") =>
  new AppError(403, code, message);
export const notFound = (what = "Resource") => new AppError(404, "NOT_FOUND", `${what} not found`);
export const conflict = (message: string, code: ErrorCode = "CONFLICT") => new AppError(409, code, message);

/** Refuses one item more in a collection bounded by `COLLECTION_LIMITS` (contract). */
export const limitReached = (what: string, max: number) =>
  conflict(`${what} holds at most ${max} items`, "LIMIT_REACHED");

/** A PostgreSQL unique violation (23505), as thrown by either driver (drizzle may wrap it in `cause`). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
