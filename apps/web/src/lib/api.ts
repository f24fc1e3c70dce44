import type { paths } from "@api-docs/openapi";
import { ApiError, errorText } from "./api-error";
import { showApiError } from "./feedback";
import { i18n } from "./i18n";

export const API_BASE = "/api";

/** `/api/v1/courses/{id}` → `/v1/courses/${string}`: a path of the API as the client writes it. */
type ClientPath<P> = P extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${ClientPath<Tail>}`
  : P;

/**
 * Every path the API serves, from its OpenAPI document (docs/api/openapi.d.ts, generated from the
 * routes): a call to a path the API does not have fails the type check.
 */
export type ApiPath = ClientPath<keyof paths extends `${typeof API_BASE}${infer P}` ? P : never>;

/** How requests leave: `fetch` in the browser; the server renderer passes its own (no network). */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;
let transport: ApiTransport = (url, init) => fetch(url, init);

export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

/** A call still unanswered after this long fails (TIMEOUT): no screen waits forever on a stuck API. */
const REQUEST_TIMEOUT_MS = 20_000;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Skip the global toasts (the caller shows its own message). */
  silent?: boolean;
  /** Do not try a token refresh on 401 (sign-in calls, the refresh itself). */
  noRefresh?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
  /** The request outlives the page (sent as the tab closes; the body must stay under 64 KB). */
  keepalive?: boolean;
  /** How long the whole call may take (a file rendered on demand), REQUEST_TIMEOUT_MS unless told. */
  timeoutMs?: number;
}

// The access token lives in memory only; the refresh token is an httpOnly cookie.
let accessToken: string | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | null = null;
let sessionExpired: (() => void) | null = null;

export function getAccessToken(): string | null {
  return accessToken;
}

/** Stores the token and schedules the silent refresh shortly before it expires. */
export function setAccessToken(token: string | null, expiresInSeconds?: number): void {
  accessToken = token;
  clearTimeout(refreshTimer);
  refreshTimer = undefined;
  if (token && expiresInSeconds && expiresInSeconds > 0) {
    refreshTimer = setTimeout(() => {
      void refreshAccessToken().then((ok) => {
        if (!ok && accessToken) sessionExpired?.();
      });
    }, refreshDelayMs(expiresInSeconds));
  }
}

/** Refresh one minute before expiry (or at 80% of very short lifetimes), never sooner than 5 s. */
export function refreshDelayMs(expiresInSeconds: number): number {
  const early = Math.min(60, expiresInSeconds * 0.2);
  return Math.max(5_000, (expiresInSeconds - early) * 1000);
}

/** Called when the session cannot be renewed (refresh failed after a 401). */
export function onSessionExpired(handler: () => void): void {
  sessionExpired = handler;
}

async function postRefresh(): Promise<Response> {
  return fetch(`${API_BASE}/v1/auth/refresh`, {
    method: "POST",
    credentials: "include",
    headers: { Accept: "application/json" },
  });
}

/**
 * Rotates the refresh cookie. Tabs of the same browser share the cookie: the Web Locks API
 * makes them take turns, so a tab never presents a token another tab has just rotated; where
 * locks are missing, a refused refresh is tried once more, with the cookie the other tab set.
 */
async function rotate(): Promise<boolean> {
  let res = await postRefresh();
  if (res.status === 401 && !("locks" in navigator)) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    res = await postRefresh();
  }
  if (!res.ok) return false;
  const body = (await res.json()) as { data?: { accessToken?: string; expiresIn?: number } };
  const token = body.data?.accessToken;
  if (!token) return false;
  setAccessToken(token, body.data?.expiresIn);
  return true;
}

/** `POST /v1/auth/refresh` (cookie-based), shared by concurrent callers of this tab. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      if ("locks" in navigator) return await navigator.locks.request("parlons-auth-refresh", rotate);
      return await rotate();
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

export function buildUrl(path: string, query?: RequestOptions["query"]): string {
  let url = `${API_BASE}${path.startsWith("/") ? path : `/${path}`}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  // a form (a file upload) goes as multipart, its boundary set by the browser
  const form = typeof FormData !== "undefined" && options.body instanceof FormData;
  if (options.body !== undefined && !form) headers["Content-Type"] = "application/json";
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  return transport(buildUrl(path, options.query), {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body:
      options.body === undefined
        ? undefined
        : form
          ? (options.body as FormData)
          : JSON.stringify(options.body),
    credentials: "include",
    ...(options.keepalive ? { keepalive: true } : {}),
    signal: options.signal
      ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS)])
      : AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
  });
}

async function parseError(res: Response): Promise<ApiError> {
  let body: Partial<{ code: string; message: string; errors: Record<string, string[]> }> = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // Not JSON (proxy error page...): keep the status only.
  }
  const retryAfter = Number(res.headers.get("retry-after"));
  return new ApiError(
    res.status,
    body.code ?? `HTTP_${res.status}`,
    body.message ?? res.statusText,
    body.errors,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

/** The JSON client of the API: Bearer token, cookies, error envelope, refresh on 401. */
export async function api<T>(path: ApiPath, options: RequestOptions = {}): Promise<T> {
  const res = await request(path, options);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A file the API answers (a receipt's PDF, an event's .ics), with the same token, refresh and errors as `api`. */
export async function apiFile(path: ApiPath, options: RequestOptions = {}): Promise<Blob> {
  return (await request(path, options)).blob();
}

/**
 * A large file, read as it arrives: `onProgress` gets the share received (null while the server
 * has not said the length), and the answer keeps the response's headers.
 */
export async function apiDownload(
  path: ApiPath,
  options: RequestOptions & { onProgress?: (fraction: number | null) => void } = {},
): Promise<{ blob: Blob; headers: Headers }> {
  const res = await request(path, options);
  const type = res.headers.get("content-type") ?? "application/octet-stream";
  if (!res.body) return { blob: await res.blob(), headers: res.headers };
  const total = Number(res.headers.get("content-length")) || 0;
  const reader = res.body.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  options.onProgress?.(total ? 0 : null);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    options.onProgress?.(total ? Math.min(1, received / total) : null);
  }
  return { blob: new Blob(parts, { type }), headers: res.headers };
}

async function request(path: string, options: RequestOptions): Promise<Response> {
  let res: Response;
  try {
    res = await send(path, options);
    if (res.status === 401 && accessToken && !options.noRefresh) {
      if (await refreshAccessToken()) {
        res = await send(path, options);
      } else {
        setAccessToken(null);
        sessionExpired?.();
      }
    }
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    if (cause instanceof DOMException && cause.name === "TimeoutError") {
      throw new ApiError(0, "TIMEOUT", i18n.t("errors:TIMEOUT"));
    }
    if (!options.silent) showApiError(i18n.t("errors:network"));
    throw new ApiError(0, "NETWORK_ERROR", i18n.t("errors:network"));
  }

  if (!res.ok) {
    const error = await parseError(res);
    if (res.status >= 500) {
      if (!options.silent) {
        showApiError(i18n.t("errors:somethingWrong"), errorText(error));
      }
    } else if (res.status === 400 || res.status === 422) {
      console.warn(`[api] ${res.status} ${path}`, error.code, error.message, error.errors ?? "");
    }
    throw error;
  }
  return res;
}
