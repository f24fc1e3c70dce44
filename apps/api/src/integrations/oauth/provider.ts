/**
 * Social sign-in providers behind one interface. Each client speaks its provider's real
 * endpoints (base URLs come from the configuration, so tests use a local fake) and holds the
 * client secret, which never appears in a log line, an error message or a response.
 */

const OAUTH_PROVIDERS = ["google", "facebook", "github"] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number];

export const isOAuthProviderId = (value: string): value is OAuthProviderId =>
  (OAUTH_PROVIDERS as readonly string[]).includes(value);

/** Who the provider says signed in. `email` is lowercased; `emailVerified` as the provider vouches. */
export interface OAuthProfile {
  providerUserId: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
}

export interface OAuthProvider {
  readonly id: OAuthProviderId;
  /** Google uses PKCE (S256): the caller keeps the verifier and passes the challenge here. */
  readonly usesPkce: boolean;
  authorizeUrl(input: { redirectUri: string; state: string; codeChallenge?: string }): string;
  /** Trades the authorization code for the token `profileFromToken` accepts (Google: the ID token). */
  exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<string>;
  /**
   * Verifies a provider token with the provider, including that it was issued to OUR app
   * (Google: `aud`; Facebook: `debug_token`'s app_id; GitHub: the token check of our OAuth app),
   * and returns the profile.
   */
  profileFromToken(token: string): Promise<OAuthProfile>;
}

/**
 * `rejected`: the provider said no (bad code, invalid token, other app) → 401.
 * `unavailable`: no usable answer (network, timeout, 5xx, garbage) → 502.
 */
export class OAuthError extends Error {
  override readonly name = "OAuthError";
  constructor(
    readonly kind: "rejected" | "unavailable",
    readonly provider: OAuthProviderId,
    message: string,
  ) {
    super(message);
  }
}

export interface HttpOptions {
  timeoutMs: number;
  fetch: typeof fetch;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/**
 * One call to a provider: network failures, timeouts, 5xx and non-JSON bodies are `unavailable`;
 * other statuses are returned for the client to judge. `what` names the call in error messages
 * (never the URL: query strings carry tokens and secrets).
 */
export async function callJson(
  provider: OAuthProviderId,
  what: string,
  url: string,
  init: RequestInit,
  http: HttpOptions,
): Promise<JsonAnswer> {
  let res: Response;
  let text: string;
  try {
    res = await http.fetch(url, {
      ...init,
      redirect: "error",
      signal: AbortSignal.timeout(http.timeoutMs),
      headers: { accept: "application/json", "user-agent": "Parlons", ...init.headers },
    });
    text = await res.text();
  } catch (err) {
    const reason = err instanceof Error && err.name === "TimeoutError" ? "timed out" : "unreachable";
    throw new OAuthError("unavailable", provider, `${provider} ${what}: ${reason}`);
  }
  if (res.status >= 500) {
    throw new OAuthError("unavailable", provider, `${provider} ${what}: HTTP ${res.status}`);
  }
  try {
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    throw new OAuthError("unavailable", provider, `${provider} ${what}: not JSON (HTTP ${res.status})`);
  }
}

export function rejected(provider: OAuthProviderId, message: string): OAuthError {
  return new OAuthError("rejected", provider, message);
}

export function unavailable(provider: OAuthProviderId, message: string): OAuthError {
  return new OAuthError("unavailable", provider, message);
}

/** Query string from a record, skipping undefined values. */
export function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  return search.toString();
}
