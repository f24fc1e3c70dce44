import { z } from "zod";
import { callJson, type HttpOptions, type OAuthProvider, query, rejected, unavailable } from "./provider";

export interface GoogleOptions {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  tokeninfoUrl: string;
}

const ISSUERS = new Set(["accounts.google.com", "https://accounts.google.com"]);

const tokenAnswer = z.object({ id_token: z.string().min(1) });

/** tokeninfo answers strings for booleans and numbers ("true", "1700000000"). */
const tokeninfo = z.object({
  iss: z.string(),
  aud: z.string(),
  sub: z.string().min(1),
  exp: z.coerce.number(),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  name: z.string().optional(),
});

/** Google: authorization code with PKCE, then the ID token verified by the tokeninfo endpoint. */
export function createGoogleProvider(opts: GoogleOptions, http: HttpOptions): OAuthProvider {
  return {
    id: "google",
    usesPkce: true,

    authorizeUrl({ redirectUri, state, codeChallenge }) {
      return `${opts.authUrl}?${query({
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "openid email profile",
        state,
        code_challenge: codeChallenge,
        code_challenge_method: codeChallenge ? "S256" : undefined,
        prompt: "select_account",
      })}`;
    },

    async exchangeCode({ code, redirectUri, codeVerifier }) {
      const res = await callJson(
        "google",
        "token",
        opts.tokenUrl,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: query({
            grant_type: "authorization_code",
            code,
            redirect_uri: redirectUri,
            client_id: opts.clientId,
            client_secret: opts.clientSecret,
            code_verifier: codeVerifier,
          }),
        },
        http,
      );
      if (res.status !== 200) throw rejected("google", `google token: HTTP ${res.status}`);
      const parsed = tokenAnswer.safeParse(res.body);
      if (!parsed.success) throw unavailable("google", "google token: no id_token in the answer");
      return parsed.data.id_token;
    },

    async profileFromToken(idToken) {
      const res = await callJson(
        "google",
        "tokeninfo",
        `${opts.tokeninfoUrl}?${query({ id_token: idToken })}`,
        { method: "GET" },
        http,
      );
      if (res.status !== 200) throw rejected("google", `google tokeninfo: HTTP ${res.status}`);
      const parsed = tokeninfo.safeParse(res.body);
      if (!parsed.success) throw unavailable("google", "google tokeninfo: unexpected answer");
      const info = parsed.data;
      if (info.aud !== opts.clientId) throw rejected("google", "google ID token issued to another client");
      if (!ISSUERS.has(info.iss)) throw rejected("google", "google ID token from an unknown issuer");
      if (info.exp * 1000 <= Date.now()) throw rejected("google", "google ID token expired");
      return {
        providerUserId: info.sub,
        email: info.email ? info.email.toLowerCase() : null,
        emailVerified: info.email_verified === true || info.email_verified === "true",
        name: info.name ?? "",
      };
    },
  };
}
