import { createHash, createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Google, Facebook and GitHub on one local HTTP server (127.0.0.1, random port), speaking the
 * real request and response shapes the API relies on:
 *
 * - Google: `/google/auth` (authorize, PKCE S256), `POST /google/token` (form, client secret,
 *   code verifier), `/google/tokeninfo?id_token=` (string booleans and numbers, like Google).
 * - Facebook: `/facebook/dialog` (authorize), `/facebook/graph/oauth/access_token`,
 *   `/facebook/graph/debug_token` (app token `id|secret`), `/facebook/graph/me` (checks
 *   `appsecret_proof` when sent). Errors are `{ error: { message, type: "OAuthException", code } }`.
 * - GitHub: `/github/login/oauth/authorize`, `POST /github/login/oauth/access_token` (errors as
 *   200 with `error`, like GitHub), `POST /github/api/applications/{client_id}/token` (Basic auth),
 *   `/github/api/user`, `/github/api/user/emails`.
 *
 * The authorize endpoints sign the "current user" in at once and 302 back to `redirect_uri` with
 * `code` and `state`. Controls: `setUser`, `deny`, `setDown`, `mintToken`.
 */

export type FakeProvider = "google" | "facebook" | "github";

export interface FakeUser {
  id: string;
  name: string;
  /** Absent: the provider has no address to give. */
  email?: string;
  /** Default true. */
  emailVerified?: boolean;
}

interface IssuedCode {
  provider: FakeProvider;
  user: FakeUser;
  clientId: string;
  redirectUri: string;
  challenge?: string;
  used: boolean;
}

interface IssuedToken {
  provider: FakeProvider;
  user: FakeUser;
  /** The client/app the token was issued to. */
  audience: string;
  expiresAt: number;
}

interface FakeCredentials {
  google: { clientId: string; clientSecret: string };
  facebook: { clientId: string; clientSecret: string };
  github: { clientId: string; clientSecret: string };
}

export interface FakeOAuthProviders {
  url: string;
  credentials: FakeCredentials;
  /** Environment variables pointing the API at this fake (every provider configured). */
  env(only?: FakeProvider[]): Record<string, string>;
  /** Who the next authorize request signs in. */
  setUser(provider: FakeProvider, user: FakeUser): void;
  /** The next authorize request answers `error=access_denied` (the user cancelled). */
  deny(provider: FakeProvider): void;
  /** While down, every endpoint of the provider answers 503. */
  setDown(provider: FakeProvider, down: boolean): void;
  /** A token as the provider would hand a browser: Google ID token, Facebook or GitHub access token. */
  mintToken(
    provider: FakeProvider,
    user: FakeUser,
    opts?: { audience?: string; expiresInSeconds?: number },
  ): string;
  /** Paths requested so far (no query), for assertions. */
  calls: string[];
  close(): Promise<void>;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

export async function startFakeOAuthProviders(): Promise<FakeOAuthProviders> {
  const credentials: FakeCredentials = {
    google: { clientId: "google-client.apps.googleusercontent.com", clientSecret: "google-secret" },
    facebook: { clientId: "1234567890", clientSecret: "facebook-secret" },
    github: { clientId: "Iv1.github-client", clientSecret: "github-secret" },
  };
  const users: Record<FakeProvider, FakeUser> = {
    google: { id: "g-1", name: "Gaëlle Google", email: "gaelle@example.com" },
    facebook: { id: "fb-1", name: "Fabien Facebook", email: "fabien@example.com" },
    github: { id: "101", name: "Gina GitHub", email: "gina@example.com" },
  };
  const denied = new Set<FakeProvider>();
  const down = new Set<FakeProvider>();
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, IssuedToken>();
  const calls: string[] = [];

  function mint(provider: FakeProvider, user: FakeUser, audience: string, expiresInSeconds = 3600) {
    const expiresAt = Date.now() + expiresInSeconds * 1000;
    let token: string;
    if (provider === "google") {
      const header = b64url(JSON.stringify({ alg: "RS256", kid: "fake", typ: "JWT" }));
      const payload = b64url(
        JSON.stringify({
          iss: "https://accounts.google.com",
          aud: audience,
          sub: user.id,
          exp: expiresAt / 1000,
        }),
      );
      token = `${header}.${payload}.${b64url(randomBytes(32))}`;
    } else if (provider === "facebook") {
      token = `EAA${randomBytes(48).toString("base64url")}`;
    } else {
      token = `gho_${randomBytes(27).toString("base64url")}`;
    }
    tokens.set(token, { provider, user, audience, expiresAt });
    return token;
  }

  const liveToken = (provider: FakeProvider, token: string | undefined) => {
    const found = token ? tokens.get(token) : undefined;
    return found && found.provider === provider && found.expiresAt > Date.now() ? found : undefined;
  };

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  }

  function redirect(res: ServerResponse, location: string) {
    res.writeHead(302, { location });
    res.end();
  }

  async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  }

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      return {};
    }
  }

  /** Shared authorize behaviour: checks the client, then 302 back with a code (or an error). */
  function authorize(provider: FakeProvider, url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri");
    if (q.get("client_id") !== credentials[provider].clientId || !redirectUri) {
      return json(res, 400, {
        error: "invalid_request",
        error_description: "unknown client or no redirect_uri",
      });
    }
    const back = new URL(redirectUri);
    const state = q.get("state");
    if (denied.delete(provider)) {
      back.searchParams.set("error", "access_denied");
      if (provider === "facebook") back.searchParams.set("error_reason", "user_denied");
    } else {
      if (provider === "google" && q.get("code_challenge") && q.get("code_challenge_method") !== "S256") {
        return json(res, 400, { error: "invalid_request", error_description: "code_challenge_method" });
      }
      const code = randomBytes(16).toString("hex");
      codes.set(code, {
        provider,
        user: users[provider],
        clientId: credentials[provider].clientId,
        redirectUri,
        ...(q.get("code_challenge") ? { challenge: q.get("code_challenge") ?? "" } : {}),
        used: false,
      });
      back.searchParams.set("code", code);
    }
    if (state !== null) back.searchParams.set("state", state);
    return redirect(res, back.toString());
  }

  /** A code can be redeemed once, by the client it was issued to, with the same redirect_uri. */
  function redeem(
    provider: FakeProvider,
    code: string | null,
    redirectUri: string | null,
    verifier?: string | null,
  ) {
    const issued = code ? codes.get(code) : undefined;
    if (!issued || issued.provider !== provider || issued.used || issued.redirectUri !== redirectUri)
      return undefined;
    if (issued.challenge !== undefined) {
      const computed = createHash("sha256")
        .update(verifier ?? "")
        .digest("base64url");
      if (computed !== issued.challenge) return undefined;
    }
    issued.used = true;
    return issued;
  }

  const fbError = (res: ServerResponse, status: number, message: string, code: number) =>
    json(res, status, { error: { message, type: "OAuthException", code, fbtrace_id: "Afake" } });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    calls.push(`${req.method} ${path}`);
    const provider = path.split("/")[1] as FakeProvider;
    if (down.has(provider)) return json(res, 503, { error: "temporarily_unavailable" });
    const q = url.searchParams;

    // --- Google ---
    if (path === "/google/auth" && req.method === "GET") return authorize("google", url, res);
    if (path === "/google/token" && req.method === "POST") {
      const form = await readForm(req);
      const c = credentials.google;
      if (form.get("client_id") !== c.clientId || form.get("client_secret") !== c.clientSecret) {
        return json(res, 401, {
          error: "invalid_client",
          error_description: "The OAuth client was not found.",
        });
      }
      if (form.get("grant_type") !== "authorization_code")
        return json(res, 400, { error: "unsupported_grant_type" });
      const issued = redeem("google", form.get("code"), form.get("redirect_uri"), form.get("code_verifier"));
      if (!issued) return json(res, 400, { error: "invalid_grant", error_description: "Bad Request" });
      return json(res, 200, {
        access_token: `ya29.${randomBytes(24).toString("base64url")}`,
        expires_in: 3599,
        scope:
          "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
        token_type: "Bearer",
        id_token: mint("google", issued.user, c.clientId),
      });
    }
    if (path === "/google/tokeninfo" && req.method === "GET") {
      const found = liveToken("google", q.get("id_token") ?? undefined);
      if (!found) return json(res, 400, { error: "invalid_token", error_description: "Invalid Value" });
      const { user } = found;
      return json(res, 200, {
        iss: "https://accounts.google.com",
        azp: found.audience,
        aud: found.audience,
        sub: user.id,
        ...(user.email ? { email: user.email, email_verified: String(user.emailVerified ?? true) } : {}),
        name: user.name,
        iat: String(Math.floor(found.expiresAt / 1000) - 3600),
        exp: String(Math.floor(found.expiresAt / 1000)),
        alg: "RS256",
        kid: "fake",
        typ: "JWT",
      });
    }

    // --- Facebook ---
    if (path === "/facebook/dialog" && req.method === "GET") return authorize("facebook", url, res);
    if (path === "/facebook/graph/oauth/access_token" && req.method === "GET") {
      const c = credentials.facebook;
      if (q.get("client_id") !== c.clientId || q.get("client_secret") !== c.clientSecret) {
        return fbError(res, 400, "Error validating client secret.", 1);
      }
      const issued = redeem("facebook", q.get("code"), q.get("redirect_uri"));
      if (!issued) return fbError(res, 400, "This authorization code has been used.", 100);
      return json(res, 200, {
        access_token: mint("facebook", issued.user, c.clientId),
        token_type: "bearer",
        expires_in: 5183944,
      });
    }
    if (path === "/facebook/graph/debug_token" && req.method === "GET") {
      const c = credentials.facebook;
      if (q.get("access_token") !== `${c.clientId}|${c.clientSecret}`) {
        return fbError(res, 400, "Invalid OAuth access token signature.", 190);
      }
      const input = q.get("input_token") ?? "";
      const found = liveToken("facebook", input);
      if (!found) {
        return json(res, 200, {
          data: { is_valid: false, error: { code: 190, message: "Invalid OAuth access token." }, scopes: [] },
        });
      }
      return json(res, 200, {
        data: {
          app_id: found.audience,
          type: "USER",
          application: "Other app",
          data_access_expires_at: Math.floor(found.expiresAt / 1000),
          expires_at: Math.floor(found.expiresAt / 1000),
          is_valid: true,
          scopes: ["email", "public_profile"],
          user_id: found.user.id,
        },
      });
    }
    if (path === "/facebook/graph/me" && req.method === "GET") {
      const token = q.get("access_token") ?? "";
      const found = liveToken("facebook", token);
      if (!found) return fbError(res, 400, "Invalid OAuth access token data.", 190);
      const proof = q.get("appsecret_proof");
      if (proof !== null) {
        const expected = createHmac("sha256", credentials.facebook.clientSecret).update(token).digest("hex");
        if (proof !== expected)
          return fbError(res, 400, "Invalid appsecret_proof provided in the API argument", 100);
      }
      const { user } = found;
      // Graph only returns a confirmed address
      const email = user.email && (user.emailVerified ?? true) ? { email: user.email } : {};
      return json(res, 200, { id: user.id, name: user.name, ...email });
    }

    // --- GitHub ---
    if (path === "/github/login/oauth/authorize" && req.method === "GET")
      return authorize("github", url, res);
    if (path === "/github/login/oauth/access_token" && req.method === "POST") {
      const form = await readForm(req);
      const c = credentials.github;
      if (form.get("client_id") !== c.clientId || form.get("client_secret") !== c.clientSecret) {
        return json(res, 200, {
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
        });
      }
      const issued = redeem("github", form.get("code"), form.get("redirect_uri"));
      if (!issued) {
        return json(res, 200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      }
      return json(res, 200, {
        access_token: mint("github", issued.user, c.clientId),
        token_type: "bearer",
        scope: "read:user,user:email",
      });
    }
    const appCheck = /^\/github\/api\/applications\/([^/]+)\/token$/.exec(path);
    if (appCheck && req.method === "POST") {
      const c = credentials.github;
      const basic = `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString("base64")}`;
      if (req.headers.authorization !== basic || decodeURIComponent(appCheck[1] ?? "") !== c.clientId) {
        return json(res, 401, { message: "Bad credentials" });
      }
      const body = await readJson(req);
      const found = liveToken(
        "github",
        typeof body.access_token === "string" ? body.access_token : undefined,
      );
      if (!found || found.audience !== c.clientId) return json(res, 404, { message: "Not Found" });
      return json(res, 200, {
        id: 1,
        token: body.access_token,
        app: { client_id: found.audience, name: "Parlons" },
        user: { login: found.user.name, id: Number(found.user.id) },
      });
    }
    if (path.startsWith("/github/api/user") && req.method === "GET") {
      const auth = req.headers.authorization ?? "";
      const found = liveToken("github", auth.replace(/^(Bearer|token) /, ""));
      if (!found) return json(res, 401, { message: "Bad credentials" });
      const { user } = found;
      if (path === "/github/api/user") {
        return json(res, 200, {
          login: user.name.toLowerCase().replace(/\s+/g, "-"),
          id: Number(user.id),
          name: user.name,
          email: null,
        });
      }
      if (path === "/github/api/user/emails") {
        return json(
          res,
          200,
          user.email
            ? [
                {
                  email: `${user.id}+noreply@users.noreply.github.com`,
                  primary: false,
                  verified: true,
                  visibility: null,
                },
                {
                  email: user.email,
                  primary: true,
                  verified: user.emailVerified ?? true,
                  visibility: "private",
                },
              ]
            : [],
        );
      }
    }
    return json(res, 404, { message: "Not Found" });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => json(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    credentials,
    calls,
    env(only = ["google", "facebook", "github"]) {
      const env: Record<string, string> = {
        GOOGLE_AUTH_URL: `${url}/google/auth`,
        GOOGLE_TOKEN_URL: `${url}/google/token`,
        GOOGLE_TOKENINFO_URL: `${url}/google/tokeninfo`,
        FACEBOOK_DIALOG_URL: `${url}/facebook/dialog`,
        FACEBOOK_GRAPH_URL: `${url}/facebook/graph`,
        GITHUB_OAUTH_URL: `${url}/github/login/oauth`,
        GITHUB_API_URL: `${url}/github/api`,
      };
      if (only.includes("google")) {
        env.GOOGLE_CLIENT_ID = credentials.google.clientId;
        env.GOOGLE_CLIENT_SECRET = credentials.google.clientSecret;
      }
      if (only.includes("facebook")) {
        env.FACEBOOK_APP_ID = credentials.facebook.clientId;
        env.FACEBOOK_APP_SECRET = credentials.facebook.clientSecret;
      }
      if (only.includes("github")) {
        env.GITHUB_CLIENT_ID = credentials.github.clientId;
        env.GITHUB_CLIENT_SECRET = credentials.github.clientSecret;
      }
      return env;
    },
    setUser(provider, user) {
      users[provider] = user;
    },
    deny(provider) {
      denied.add(provider);
    },
    setDown(provider, isDown) {
      if (isDown) down.add(provider);
      else down.delete(provider);
    },
    mintToken(provider, user, opts = {}) {
      return mint(provider, user, opts.audience ?? credentials[provider].clientId, opts.expiresInSeconds);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
