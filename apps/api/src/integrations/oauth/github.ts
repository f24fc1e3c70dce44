import { z } from "zod";
import { callJson, type HttpOptions, type OAuthProvider, query, rejected, unavailable } from "./provider";

export interface GithubOptions {
  clientId: string;
  clientSecret: string;
  oauthUrl: string;
  apiUrl: string;
}

/** GitHub answers token errors with 200 and an `error` field. */
const tokenAnswer = z.union([z.object({ access_token: z.string().min(1) }), z.object({ error: z.string() })]);
const userAnswer = z.object({
  id: z.union([z.number(), z.string()]),
  login: z.string(),
  name: z.string().nullable().optional(),
});
const emailsAnswer = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

const apiHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
});

/**
 * GitHub OAuth app: code for an access token, the app's token check (the token must belong to
 * our OAuth app, so a token minted for another app is refused), `/user`, then `/user/emails`
 * for the verified primary address.
 */
export function createGithubProvider(opts: GithubOptions, http: HttpOptions): OAuthProvider {
  const basic = `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString("base64")}`;
  return {
    id: "github",
    usesPkce: false,

    authorizeUrl({ redirectUri, state }) {
      return `${opts.oauthUrl}/authorize?${query({
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        scope: "read:user user:email",
        state,
        allow_signup: "true",
      })}`;
    },

    async exchangeCode({ code, redirectUri }) {
      const res = await callJson(
        "github",
        "access_token",
        `${opts.oauthUrl}/access_token`,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: query({
            client_id: opts.clientId,
            client_secret: opts.clientSecret,
            code,
            redirect_uri: redirectUri,
          }),
        },
        http,
      );
      if (res.status !== 200) throw rejected("github", `github access_token: HTTP ${res.status}`);
      const parsed = tokenAnswer.safeParse(res.body);
      if (!parsed.success) throw unavailable("github", "github access_token: unexpected answer");
      if ("error" in parsed.data) throw rejected("github", `github access_token: ${parsed.data.error}`);
      return parsed.data.access_token;
    },

    async profileFromToken(token) {
      const check = await callJson(
        "github",
        "token check",
        `${opts.apiUrl}/applications/${encodeURIComponent(opts.clientId)}/token`,
        {
          method: "POST",
          headers: {
            authorization: basic,
            accept: "application/vnd.github+json",
            "content-type": "application/json",
          },
          body: JSON.stringify({ access_token: token }),
        },
        http,
      );
      // 404: not a live token of this app; 422: malformed
      if (check.status !== 200) throw rejected("github", `github token check: HTTP ${check.status}`);
      const user = await callJson(
        "github",
        "user",
        `${opts.apiUrl}/user`,
        { headers: apiHeaders(token) },
        http,
      );
      if (user.status !== 200) throw rejected("github", `github user: HTTP ${user.status}`);
      const profile = userAnswer.safeParse(user.body);
      if (!profile.success) throw unavailable("github", "github user: unexpected answer");
      const emails = await callJson(
        "github",
        "emails",
        `${opts.apiUrl}/user/emails`,
        { headers: apiHeaders(token) },
        http,
      );
      let email: { email: string; verified: boolean } | undefined;
      if (emails.status === 200) {
        const list = emailsAnswer.safeParse(emails.body);
        if (!list.success) throw unavailable("github", "github emails: unexpected answer");
        email = list.data.find((e) => e.primary);
      } else if (emails.status !== 403 && emails.status !== 404) {
        // 403/404: the user:email scope was not granted; anything else is the provider refusing us
        throw rejected("github", `github emails: HTTP ${emails.status}`);
      }
      return {
        providerUserId: String(profile.data.id),
        email: email ? email.email.toLowerCase() : null,
        emailVerified: email?.verified ?? false,
        name: profile.data.name || profile.data.login,
      };
    },
  };
}
