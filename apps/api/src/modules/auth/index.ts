import { createOAuthProviders } from "../../integrations/oauth";
import { announcing } from "../../lib/change-bus";
import { defineModule } from "../../lib/module";
import { createPageCookie } from "../../lib/page-cookie";
import passkeyRoutes from "./passkey-routes";
import { createPasskeyService } from "./passkey-service";
import type { PrincipalCache } from "./principal-cache";
import { createPrincipalCache } from "./principal-cache";
import authRoutes from "./routes";
import secondFactorRoutes from "./second-factor-routes";
import type { SecondFactorService } from "./second-factor-service";
import { createSecondFactorService } from "./second-factor-service";
import type { AuthService } from "./service";
import { createAuthService } from "./service";
import type { SessionService } from "./session-service";
import { createSessionService } from "./session-service";
import { createSocialService } from "./social";
import socialRoutes from "./social-routes";
import type { AttemptGuard } from "./throttle";
import { createAttemptGuard, databaseAttemptStore, redisAttemptStore } from "./throttle";
import type { TokenSigner } from "./tokens";
import { createTokenSigner } from "./tokens";

declare module "../../lib/module" {
  interface AppServices {
    signer: TokenSigner;
    sessions: SessionService;
    /** Who is calling, and what their plan opens, from memory until a change. */
    principals: PrincipalCache;
    pageCookie: ReturnType<typeof createPageCookie>;
    attempts: AttemptGuard;
    auth: AuthService;
    secondFactor: SecondFactorService;
    passkeys: ReturnType<typeof createPasskeyService>;
    social: ReturnType<typeof createSocialService>;
  }
}

/**
 * Signing in and out: accounts' passwords, sessions and their tokens, second factors (an
 * authenticator app, passkeys), social sign-in; who is calling (`principals`, from memory until a change) and what their plan opens.
 */
export default defineModule({
  name: "auth",
  needs: ["users", "settings", "audit", "mailOutbox", "transactionalMails", "entitlement", "billing"],
  provides: [
    "signer",
    "sessions",
    "principals",
    "pageCookie",
    "attempts",
    "auth",
    "secondFactor",
    "passkeys",
    "social",
  ],
  announces: ["session", "user"],
  build: ({ db, app, config, changes, mailer, redis }, deps) => {
    const { users, settings, audit, entitlement, billing } = deps;
    const signer = createTokenSigner(config.jwtSecret, config.accessTokenTtl, {
      previous: config.jwtPreviousSecret,
    });
    // inside a caller's transaction nothing is told: the caller tells after its commit
    const own = (tx: unknown) => tx === undefined || tx === db;
    const sessions = announcing(createSessionService(db, signer, config.refreshTokenTtl, changes), changes, {
      revoke: (sessionId, _reason, tx) => (own(tx) ? [`session:${sessionId}`] : []),
      revokeAllForUser: (userId, _reason, _keep, tx) => (own(tx) ? [`user:${userId}`] : []),
    });
    const secondFactor = createSecondFactorService({ db, users, settings });
    // password attempts per account: in Redis when there is one (like the rate limits), else a table
    // (one namespace per deployment sharing a Redis, like the change channel)
    const attempts = createAttemptGuard({
      store: redis
        ? redisAttemptStore(redis, `parlons-attempts:${config.changeChannel}:`)
        : databaseAttemptStore(db),
    });
    const passkeys = createPasskeyService({
      db,
      relyingParty: config.passkey,
      users,
      secondFactor,
      attempts,
    });
    const auth = createAuthService({
      db,
      attempts,
      outbox: deps.mailOutbox,
      users,
      sessions,
      secondFactor,
      mailer,
      settings,
      audit,
      publicUrl: config.publicUrl,
      log: app.log,
      changes,
      mails: deps.transactionalMails,
    });
    const social = createSocialService({
      db,
      users,
      auth,
      settings,
      providers: createOAuthProviders(config.oauth),
      publicUrl: config.publicUrl,
      secret: config.jwtSecret,
      log: app.log,
    });
    // what a principal's plan opens is read through the principal cache (from memory until it changes)
    const principals = createPrincipalCache({ signer, sessions, users, entitlement, changes });
    // spec §4: after a login on a paid plan, the provider's subscription is checked
    auth.onLogin((userId) => billing.checkAtLogin(userId));
    // reset requests and activation resends finish after their answer: before the database closes
    app.addHook("onClose", () => auth.settled());
    const pageCookie = createPageCookie(config.jwtSecret);
    return { signer, sessions, principals, pageCookie, attempts, auth, secondFactor, passkeys, social };
  },
  routes: async (api) => {
    await api.register(authRoutes);
    await api.register(socialRoutes);
    await api.register(secondFactorRoutes);
    await api.register(passkeyRoutes);
  },
});
