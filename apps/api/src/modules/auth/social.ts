import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type Locale, langPrefix, type SocialError, type Speak, toLocale } from "@parlons/contract";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import { oauthAccounts, oneTimeTokens } from "../../db/schema/auth";
import {
  isOAuthProviderId,
  OAuthError,
  type OAuthProfile,
  type OAuthProvider,
  type OAuthProviderId,
  type OAuthProviders,
  query,
} from "../../integrations/oauth";
import { AppError, forbidden, isUniqueViolation, unauthenticated } from "../../lib/errors";
import { hashToken, randomToken } from "../../lib/secret-tokens";
import type { SettingsService } from "../settings/service";
import type { UserRow, UserService } from "../users/service";
import type { AuthService } from "./service";

/** Tickets are recognisable, so they are never sent to a provider as if they were its token. */
const TICKET_PREFIX = "st_";
const TICKET_TTL_MS = 2 * 60_000;
/** Lifetime of the state cookie: the time a user may spend on the provider's pages. */
export const STATE_TTL_SECONDS = 10 * 60;

type Lang = Locale;
type Meta = { userAgent?: string; ip?: string };

export interface SocialDeps {
  db: Db;
  users: UserService;
  auth: Pick<AuthService, "startLogin">;
  settings: Pick<SettingsService, "registrationsOpen">;
  providers: OAuthProviders;
  publicUrl: string;
  /** Signs the state cookie (a key derived from it is used, never the secret itself). */
  secret: string;
  log: FastifyBaseLogger;
}

/** A social sign-in refused for a reason of ours (not the provider's). */
class SocialRefusal extends Error {
  constructor(
    readonly reason: Extract<SocialError, "email" | "closed">,
    message: string,
  ) {
    super(message);
  }
}

export const langOf = (value: string | undefined): Lang => toLocale(value);

/**
 * Social sign-in (docs/decisions.md, "Social sign-in"): the server-side authorization-code flow
 * ending in a one-time ticket, and the exchange of a ticket or a provider token for a session.
 */
export function createSocialService(deps: SocialDeps) {
  const { db, users, auth, settings, providers, publicUrl, log } = deps;
  const stateKey = createHash("sha256").update(`oauth-state:${deps.secret}`).digest();

  const redirectUri = (id: OAuthProviderId) => `${publicUrl}/api/v1/auth/oauth/${id}/callback`;
  const loginUrl = (lang: Lang, params: Record<string, string>) =>
    `${publicUrl}${langPrefix(lang)}/login?${query(params)}`;

  function providerOf(id: string): OAuthProvider | undefined {
    return isOAuthProviderId(id) ? providers[id] : undefined;
  }

  // --- state cookie: provider, language, state and PKCE verifier, signed ---
  const mac = (payload: string) => createHmac("sha256", stateKey).update(payload).digest("base64url");

  function sealState(value: { provider: OAuthProviderId; lang: Lang; state: string; verifier: string }) {
    const payload = [value.provider, value.lang, value.state, value.verifier].join(".");
    return `${payload}.${mac(payload)}`;
  }

  function openState(cookie: string | undefined) {
    const parts = cookie?.split(".") ?? [];
    if (parts.length !== 5) return undefined;
    const [provider = "", lang = "", state = "", verifier = "", signature = ""] = parts;
    const expected = Buffer.from(mac(parts.slice(0, 4).join(".")));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    if (!isOAuthProviderId(provider)) return undefined;
    return { provider, lang: langOf(lang), state, verifier };
  }

  const sameString = (a: string, b: string) => {
    const x = createHash("sha256").update(a).digest();
    const y = createHash("sha256").update(b).digest();
    return timingSafeEqual(x, y);
  };

  // --- tickets: one_time_tokens of kind social_login, hashed, 2 minutes, single use ---
  async function issueTicket(userId: string): Promise<string> {
    const ticket = `${TICKET_PREFIX}${randomToken()}`;
    await db.insert(oneTimeTokens).values({
      userId,
      kind: "social_login",
      tokenHash: hashToken(ticket),
      expiresAt: new Date(Date.now() + TICKET_TTL_MS),
    });
    return ticket;
  }

  async function consumeTicket(ticket: string): Promise<string | undefined> {
    const [row] = await db
      .update(oneTimeTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(oneTimeTokens.tokenHash, hashToken(ticket)),
          eq(oneTimeTokens.kind, "social_login"),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: oneTimeTokens.userId });
    return row?.userId;
  }

  // --- who is it: linked account, else same verified email, else a new learner ---
  async function resolveOnce(provider: OAuthProviderId, profile: OAuthProfile, speak: Speak) {
    const [linked] = await db
      .select({ userId: oauthAccounts.userId })
      .from(oauthAccounts)
      .where(
        and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerUserId, profile.providerUserId)),
      );
    const linkedUser = linked && (await users.findById(linked.userId));
    if (linkedUser) return linkedUser;
    // an address the provider does not vouch for never opens nor creates an account
    if (!profile.email || !profile.emailVerified) {
      throw new SocialRefusal("email", `${provider} gave no verified email address`);
    }
    const email = profile.email;
    const known = await users.findByEmail(email);
    if (!known && !(await settings.registrationsOpen())) {
      throw new SocialRefusal("closed", "Registrations are closed");
    }
    const user = await db.transaction(async (tx) => {
      const existing = await users.findByEmail(email, tx);
      let row: UserRow;
      if (!existing) {
        row = await users.createUser(
          { email, passwordHash: null, fullName: profile.name, speak, status: "ACTIVE", role: "CUSTOMER" },
          tx,
        );
      } else if (existing.status === "PENDING") {
        // Never activated, so whoever chose its password never proved the mailbox; the provider
        // just did: the account is activated and that password forgotten (pre-hijacking guard).
        row = await users.update(
          existing.id,
          { status: "ACTIVE", activatedAt: new Date(), passwordHash: null },
          tx,
        );
      } else {
        row = existing;
      }
      await tx
        .insert(oauthAccounts)
        .values({ userId: row.id, provider, providerUserId: profile.providerUserId });
      return { row, created: !existing };
    });
    log.info(
      { userId: user.row.id, provider },
      user.created ? "social sign-in: account created" : "social sign-in: account linked",
    );
    return user.row;
  }

  /** Two first sign-ins racing: the loser finds what the winner wrote. */
  async function resolveUser(provider: OAuthProviderId, profile: OAuthProfile, speak: Speak) {
    try {
      return await resolveOnce(provider, profile, speak);
    } catch (err) {
      const raced = isUniqueViolation(err) || (err instanceof AppError && err.code === "EMAIL_TAKEN");
      if (!raced) throw err;
      return resolveOnce(provider, profile, speak);
    }
  }

  function reasonOf(err: unknown): SocialError {
    if (err instanceof OAuthError) return err.kind === "unavailable" ? "unavailable" : "failed";
    if (err instanceof SocialRefusal) return err.reason;
    return "failed";
  }

  function toAppError(err: unknown): unknown {
    if (err instanceof OAuthError) {
      return err.kind === "unavailable"
        ? new AppError(502, "PROVIDER_ERROR", "The sign-in provider did not answer; try again later")
        : unauthenticated("The sign-in provider refused this token", "SOCIAL_LOGIN_FAILED");
    }
    if (err instanceof SocialRefusal) {
      return err.reason === "closed"
        ? forbidden("Registrations are closed", "REGISTRATIONS_CLOSED")
        : unauthenticated(
            "Your account with this provider has no verified email address",
            "SOCIAL_LOGIN_FAILED",
          );
    }
    return err;
  }

  return {
    isConfigured: (id: string) => providerOf(id) !== undefined,

    /** Step 1: where to send the browser, and the state cookie to set. */
    begin(id: string, lang: Lang): { url: string; cookie: string } | undefined {
      const provider = providerOf(id);
      if (!provider) return undefined;
      const state = randomToken();
      const verifier = provider.usesPkce ? randomBytes(48).toString("base64url") : "";
      const codeChallenge = provider.usesPkce
        ? createHash("sha256").update(verifier).digest("base64url")
        : undefined;
      const url = provider.authorizeUrl({ redirectUri: redirectUri(provider.id), state, codeChallenge });
      return { url, cookie: sealState({ provider: provider.id, lang, state, verifier }) };
    },

    /**
     * Step 2: the provider sent the browser back. Always answers where to send it next: the login
     * page with a ticket, or with `social_error` (failed steps are only logged, spec §8).
     */
    async callback(
      id: string,
      params: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
      cookie: string | undefined,
    ): Promise<string> {
      const saved = openState(cookie);
      const lang = toLocale(saved?.lang);
      const fail = (reason: SocialError) => loginUrl(lang, { social_error: reason });
      const provider = providerOf(id);
      if (
        !provider ||
        !saved ||
        saved.provider !== id ||
        !params.state ||
        !sameString(params.state, saved.state)
      ) {
        log.warn({ provider: id }, "social sign-in: state missing or mismatched");
        return fail("state");
      }
      if (params.error || !params.code) {
        log.info(
          { provider: id, error: params.error?.slice(0, 60) },
          "social sign-in: refused at the provider",
        );
        return fail("denied");
      }
      try {
        const token = await provider.exchangeCode({
          code: params.code,
          redirectUri: redirectUri(provider.id),
          ...(provider.usesPkce ? { codeVerifier: saved.verifier } : {}),
        });
        const profile = await provider.profileFromToken(token);
        const user = await resolveUser(provider.id, profile, lang.toUpperCase() as Speak);
        if (user.status === "DISABLED") return fail("disabled");
        const ticket = await issueTicket(user.id);
        return loginUrl(lang, { provider: provider.id, token: ticket });
      } catch (err) {
        const reason = reasonOf(err);
        if (err instanceof OAuthError || err instanceof SocialRefusal) {
          log.warn({ provider: id, reason, detail: err.message }, "social sign-in failed");
        } else {
          log.error({ err, provider: id }, "social sign-in failed");
        }
        return fail(reason);
      }
    },

    /**
     * Step 3 (`POST /v1/auth/social-login/{provider}?token=`): a ticket of step 2, or a provider
     * token as the spec's client sent, becomes a session exactly like a password login.
     */
    async login(id: string, token: string, meta: Meta, speak: Speak = "FR") {
      const provider = providerOf(id);
      if (!provider) throw new AppError(404, "NOT_FOUND", "Provider not found");
      try {
        let user: UserRow | undefined;
        if (token.startsWith(TICKET_PREFIX)) {
          const userId = await consumeTicket(token);
          user = userId ? await users.findById(userId) : undefined;
          if (!user)
            throw unauthenticated("This sign-in link is invalid or has expired", "SOCIAL_LOGIN_FAILED");
        } else {
          const profile = await provider.profileFromToken(token);
          user = await resolveUser(provider.id, profile, speak);
        }
        return await auth.startLogin(user, meta);
      } catch (err) {
        if (err instanceof OAuthError || err instanceof SocialRefusal) {
          log.warn({ provider: id, reason: reasonOf(err), detail: err.message }, "social login failed");
        }
        throw toAppError(err);
      }
    },
  };
}
