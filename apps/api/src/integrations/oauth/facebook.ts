import { createHmac } from "node:crypto";
import { z } from "zod";
import { callJson, type HttpOptions, type OAuthProvider, query, rejected, unavailable } from "./provider";

export interface FacebookOptions {
  clientId: string;
  clientSecret: string;
  dialogUrl: string;
  graphUrl: string;
}

const tokenAnswer = z.object({ access_token: z.string().min(1) });
const debugAnswer = z.object({
  data: z.object({
    app_id: z.string().optional(),
    is_valid: z.boolean(),
    user_id: z.string().optional(),
  }),
});
const meAnswer = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  email: z.string().optional(),
});

/**
 * Facebook Login: code for a user access token, `debug_token` (with the app token) to make sure
 * the token was issued to our app, then `/me`, signed with `appsecret_proof`.
 */
export function createFacebookProvider(opts: FacebookOptions, http: HttpOptions): OAuthProvider {
  const appToken = () => `${opts.clientId}|${opts.clientSecret}`;
  return {
    id: "facebook",
    usesPkce: false,

    authorizeUrl({ redirectUri, state }) {
      return `${opts.dialogUrl}?${query({
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "email,public_profile",
        state,
      })}`;
    },

    async exchangeCode({ code, redirectUri }) {
      const res = await callJson(
        "facebook",
        "access_token",
        `${opts.graphUrl}/oauth/access_token?${query({
          client_id: opts.clientId,
          client_secret: opts.clientSecret,
          redirect_uri: redirectUri,
          code,
        })}`,
        { method: "GET" },
        http,
      );
      if (res.status !== 200) throw rejected("facebook", `facebook access_token: HTTP ${res.status}`);
      const parsed = tokenAnswer.safeParse(res.body);
      if (!parsed.success) throw unavailable("facebook", "facebook access_token: unexpected answer");
      return parsed.data.access_token;
    },

    async profileFromToken(token) {
      const debug = await callJson(
        "facebook",
        "debug_token",
        `${opts.graphUrl}/debug_token?${query({ input_token: token, access_token: appToken() })}`,
        { method: "GET" },
        http,
      );
      if (debug.status !== 200) throw rejected("facebook", `facebook debug_token: HTTP ${debug.status}`);
      const info = debugAnswer.safeParse(debug.body);
      if (!info.success) throw unavailable("facebook", "facebook debug_token: unexpected answer");
      if (!info.data.data.is_valid) throw rejected("facebook", "facebook token is not valid");
      if (info.data.data.app_id !== opts.clientId)
        throw rejected("facebook", "facebook token issued to another app");
      const proof = createHmac("sha256", opts.clientSecret).update(token).digest("hex");
      const me = await callJson(
        "facebook",
        "me",
        `${opts.graphUrl}/me?${query({ fields: "id,name,email", access_token: token, appsecret_proof: proof })}`,
        { method: "GET" },
        http,
      );
      if (me.status !== 200) throw rejected("facebook", `facebook me: HTTP ${me.status}`);
      const profile = meAnswer.safeParse(me.body);
      if (!profile.success) throw unavailable("facebook", "facebook me: unexpected answer");
      if (info.data.data.user_id && info.data.data.user_id !== profile.data.id)
        throw rejected("facebook", "facebook token and profile disagree");
      return {
        providerUserId: profile.data.id,
        email: profile.data.email ? profile.data.email.toLowerCase() : null,
        // Graph API returns only a confirmed primary address, and none when there is none.
        emailVerified: Boolean(profile.data.email),
        name: profile.data.name ?? "",
      };
    },
  };
}
