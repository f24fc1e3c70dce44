import type { OAuthConfig } from "../../config";
import { createFacebookProvider } from "./facebook";
import { createGithubProvider } from "./github";
import { createGoogleProvider } from "./google";
import type { HttpOptions, OAuthProvider, OAuthProviderId } from "./provider";

export * from "./provider";

export type OAuthProviders = Partial<Record<OAuthProviderId, OAuthProvider>>;

/** A client per configured provider (id and secret set); the others are absent. */
export function createOAuthProviders(config: OAuthConfig, http: Partial<HttpOptions> = {}): OAuthProviders {
  const options: HttpOptions = { timeoutMs: http.timeoutMs ?? 10_000, fetch: http.fetch ?? fetch };
  const providers: OAuthProviders = {};
  if (config.google) providers.google = createGoogleProvider(config.google, options);
  if (config.facebook) providers.facebook = createFacebookProvider(config.facebook, options);
  if (config.github) providers.github = createGithubProvider(config.github, options);
  return providers;
}
