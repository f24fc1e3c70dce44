import type { ChangeBus } from "../../lib/change-bus";
import { unauthenticated } from "../../lib/errors";
import type { Access, EntitlementService } from "../entitlement/service";
import type { Principal, UserService } from "../users/service";
import type { SessionService } from "./session-service";
import type { TokenSigner } from "./tokens";

/** A token that names a session of another user than its subject: signed by us, so our secret leaked or a bug. */
const forgedToken = () => unauthenticated("Invalid access token", "TOKEN_INVALID");

export interface Resolved {
  principal: Principal;
  sessionId: string;
}

/**
 * Who is calling, from memory after the first request: the verified access token, its session
 * being live, the user's status, roles and permissions, and what their plan opens. Every change
 * that could make an answer wrong comes through the change bus and drops it in every process:
 * `session:<id>` (logout, refresh token reuse) puts the session in a revocation set;
 * `user:<id>` (status, role, plan, subscription, password, sessions ended) forgets the user and
 * their sessions; `roles` and `plans` forget every principal or every access level.
 *
 * A value read from the database is kept only if no change about it arrived while it was read
 * (per-user generations), so a read that raced a revocation cannot bring the old state back.
 * Entries also age out after `maxAgeMs`, so a lost message (a bus outage is followed by a full
 * flush anyway) cannot keep a stale answer for long; access also ends at the end of the paid time.
 */
export function createPrincipalCache(deps: {
  signer: TokenSigner;
  sessions: SessionService;
  users: UserService;
  entitlement: EntitlementService;
  changes: ChangeBus;
  maxEntries?: number;
  maxAgeMs?: number;
  now?: () => number;
}) {
  const { signer, users, entitlement, changes } = deps;
  const now = deps.now ?? Date.now;
  const maxEntries = deps.maxEntries ?? 20_000;
  const maxAgeMs = deps.maxAgeMs ?? 60_000;
  const revokedFor = signer.ttlSeconds * 1000;

  const tokens = new Map<string, { sub: string; sid: string; expMs: number }>();
  const sessions = new Map<string, { userId: string; until: number }>();
  const principals = new Map<string, { principal: Principal; until: number }>();
  const accessLevels = new Map<string, { access: Access; until: number }>();
  /** Sessions known to be over, until every access token they issued has expired. */
  const revoked = new Map<string, number>();
  let generation = 0;
  const userGenerations = new Map<string, number>();
  let counter = 0;
  /** Tokens resolved from memory or not, access levels likewise (for /metrics). */
  const stats = { principalHits: 0, principalMisses: 0, accessHits: 0, accessMisses: 0 };

  const generationOf = (userId: string) => `${generation}.${userGenerations.get(userId) ?? 0}`;
  function put<V>(map: Map<string, V>, key: string, value: V) {
    if (map.size >= maxEntries) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(key, value);
  }
  function revoke(sid: string) {
    sessions.delete(sid);
    const t = now();
    if (revoked.size >= maxEntries) for (const [id, until] of revoked) if (until <= t) revoked.delete(id);
    put(revoked, sid, t + revokedFor);
  }
  const isRevoked = (sid: string) => {
    const until = revoked.get(sid);
    return until !== undefined && until > now();
  };

  changes.subscribe((topic) => {
    if (topic === "*") {
      sessions.clear();
      principals.clear();
      accessLevels.clear();
      generation += 1;
    } else if (topic === "roles") {
      principals.clear();
      accessLevels.clear(); // staff who manage lessons open everything
      generation += 1;
    } else if (topic === "plans") {
      accessLevels.clear(); // a plan's price makes it premium or not
      generation += 1;
    } else if (topic.startsWith("user:")) {
      const id = topic.slice(5);
      principals.delete(id);
      accessLevels.delete(id);
      for (const [sid, s] of sessions) if (s.userId === id) sessions.delete(sid);
      counter += 1;
      userGenerations.set(id, counter);
      if (userGenerations.size > maxEntries) {
        userGenerations.clear();
        generation += 1;
      }
    } else if (topic.startsWith("session:")) {
      revoke(topic.slice(8));
    }
  });

  /** What memory says of a token now: its principal, why it is refused, or nothing known. */
  function lookup(token: string): Resolved | "expired" | "revoked" | "disabled" | "forged" | undefined {
    const claims = tokens.get(token);
    if (!claims) return undefined;
    const t = now();
    if (claims.expMs <= t) {
      tokens.delete(token);
      return "expired";
    }
    if (isRevoked(claims.sid)) return "revoked";
    const session = sessions.get(claims.sid);
    const user = principals.get(claims.sub);
    if (!session || session.until <= t || !user || user.until <= t) return undefined;
    // a session belongs to one user: a token naming another user's session is forged
    if (session.userId !== claims.sub) return "forged";
    if (user.principal.status !== "ACTIVE") return "disabled";
    return { principal: user.principal, sessionId: claims.sid };
  }

  function fromMemory(token: string): Resolved | undefined {
    const found = lookup(token);
    if (found === "expired") throw unauthenticated("Access token expired", "TOKEN_EXPIRED");
    if (found === "revoked") throw unauthenticated("Session ended", "SESSION_REVOKED");
    if (found === "disabled") throw unauthenticated("Account not active", "ACCOUNT_DISABLED");
    if (found === "forged") throw forgedToken();
    return found;
  }

  function accessFromMemory(principal: Principal): Access | undefined {
    const known = accessLevels.get(principal.id);
    return known && known.until > now() ? known.access : undefined;
  }

  /** Whether the session is live; throws 401 when it is another user's (the token is forged). */
  async function sessionIsLive(sid: string, userId: string): Promise<boolean> {
    if (isRevoked(sid)) return false;
    const t = now();
    const known = sessions.get(sid);
    if (known && known.until > t) {
      if (known.userId !== userId) throw forgedToken();
      return true;
    }
    const started = generationOf(userId);
    const row = await deps.sessions.findLive(sid);
    if (!row) {
      // revoked, expired or unknown: it never comes back
      revoke(sid);
      return false;
    }
    if (isRevoked(sid)) return false;
    if (row.userId !== userId) throw forgedToken();
    if (generationOf(userId) === started) {
      put(sessions, sid, { userId: row.userId, until: Math.min(row.expiresAt.getTime(), t + maxAgeMs) });
    }
    return true;
  }

  async function principalOf(userId: string): Promise<Principal | null> {
    const t = now();
    const known = principals.get(userId);
    if (known && known.until > t) return known.principal;
    const started = generationOf(userId);
    const principal = await users.loadPrincipal(userId);
    if (principal && generationOf(userId) === started) {
      put(principals, userId, { principal, until: t + maxAgeMs });
    }
    return principal;
  }

  return {
    stats,
    /**
     * The principal of a Bearer token; throws 401 with the reason (expired, invalid, session
     * ended, account not active), exactly as the database checks did.
     */
    async resolve(token: string): Promise<Resolved> {
      const hit = fromMemory(token);
      if (hit) {
        stats.principalHits += 1;
        return hit;
      }
      stats.principalMisses += 1;
      let claims = tokens.get(token);
      if (!claims) {
        const verified = await signer.verify(token);
        claims = { sub: verified.sub, sid: verified.sid, expMs: verified.exp * 1000 };
        put(tokens, token, claims);
      }
      // ASVS 7.4.1: a token of a session that ended is refused, not only forgotten by the browser
      if (!(await sessionIsLive(claims.sid, claims.sub)))
        throw unauthenticated("Session ended", "SESSION_REVOKED");
      const principal = await principalOf(claims.sub);
      if (!principal) throw unauthenticated("Unknown user", "TOKEN_INVALID");
      if (principal.status !== "ACTIVE") throw unauthenticated("Account not active", "ACCOUNT_DISABLED");
      return { principal, sessionId: claims.sid };
    },

    /**
     * The principal of a Bearer token when all of it is in memory and valid now; undefined
     * otherwise (never throws): for the fast path, which leaves every other case to the route.
     */
    peek(token: string): Resolved | undefined {
      const found = lookup(token);
      if (typeof found !== "object") return undefined;
      stats.principalHits += 1;
      return found;
    },

    /** What the principal's plan opens when it is in memory now (see accessOf), else undefined. */
    peekAccess(principal: Principal): Access | undefined {
      const access = accessFromMemory(principal);
      if (access !== undefined) stats.accessHits += 1;
      return access;
    },

    /**
     * The active principal of a live session, or null (ended, unknown, account not active): for
     * the status of a staff page, whose request carries the session's page cookie, not a token.
     */
    async ofSession(sid: string): Promise<Principal | null> {
      if (isRevoked(sid)) return null;
      const known = sessions.get(sid);
      const userId =
        known && known.until > now() ? known.userId : (await deps.sessions.findLive(sid))?.userId;
      if (!userId || !(await sessionIsLive(sid, userId))) return null;
      const principal = await principalOf(userId);
      return principal?.status === "ACTIVE" ? principal : null;
    },

    /** What the principal's plan opens (entitlement.accessOf), from memory until it changes or the paid time ends. */
    async accessOf(principal: Principal | null, at?: Date): Promise<Access> {
      if (!principal || at) return entitlement.accessOf(principal, at);
      const known = accessFromMemory(principal);
      if (known !== undefined) {
        stats.accessHits += 1;
        return known;
      }
      stats.accessMisses += 1;
      const t = now();
      const started = generationOf(principal.id);
      const { access, until } = await entitlement.accessWindow(principal, new Date(t));
      if (generationOf(principal.id) === started) {
        put(accessLevels, principal.id, {
          access,
          until: Math.min(until?.getTime() ?? Infinity, t + maxAgeMs),
        });
      }
      return access;
    },
  };
}
export type PrincipalCache = ReturnType<typeof createPrincipalCache>;
