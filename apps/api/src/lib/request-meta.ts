import { requestContext } from "@fastify/request-context";

/** Where the request being served comes from: what the audit log records next to each entry. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

declare module "@fastify/request-context" {
  interface RequestContextData {
    meta: RequestMeta;
  }
}

/**
 * The meta of the request whose work is running now (AsyncLocalStorage, set by the
 * request-context plugin in app.ts); undefined outside a request (jobs, seeds, tests calling a
 * service directly).
 */
export function currentRequestMeta(): RequestMeta | undefined {
  return requestContext.get("meta");
}
