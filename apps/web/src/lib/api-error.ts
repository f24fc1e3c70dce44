import { i18n } from "./i18n";

/** Error envelope of ARCHITECTURE §4, thrown by every failed call. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Record<string, string[]> | undefined;
  /** Seconds to wait before trying again (a 429's Retry-After), when the server said. */
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    errors?: Record<string, string[]>,
    retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }
}

/** A wait in seconds as the reader says it: "30 s", "5 min", "2 h" (rounded up). */
function waitText(seconds: number): string {
  if (seconds < 60) return i18n.t("errors:wait.seconds", { count: Math.ceil(seconds) });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return i18n.t("errors:wait.minutes", { count: minutes });
  return i18n.t("errors:wait.hours", { count: Math.ceil(minutes / 60) });
}

/** The API's message for an error, translated from its code when we know it (errors.json). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const key = `errors:${error.code}`;
    // a wait the server asked for, in the reader's units (ACCOUNT_THROTTLED says "in {{wait}}")
    if (i18n.exists(key)) return i18n.t(key, { wait: waitText(error.retryAfter ?? 60) });
    return error.message || i18n.t("errors:generic");
  }
  return i18n.t("errors:generic");
}
