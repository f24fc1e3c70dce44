import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { refreshTokens, sessions } from "../../db/schema/auth";
import type { ChangeBus } from "../../lib/change-bus";
import { unauthenticated } from "../../lib/errors";
import { hashToken, randomToken } from "../../lib/secret-tokens";
import type { TokenSigner } from "./tokens";

/** A refresh token presented twice within this window is a race of the same client, not theft. */
const REUSE_GRACE_MS = 10_000;

export interface IssuedTokens {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  sessionId: string;
}

export function createSessionService(
  db: Db,
  signer: TokenSigner,
  refreshTtlSeconds: number,
  changes?: ChangeBus,
) {
  async function issueRefresh(sessionId: string, tx: DbOrTx): Promise<string> {
    const token = randomToken();
    await tx.insert(refreshTokens).values({ sessionId, tokenHash: hashToken(token) });
    return token;
  }

  async function revoke(sessionId: string, reason: string, tx: DbOrTx = db) {
    await tx
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  return {
    async start(
      userId: string,
      meta: { userAgent?: string; ip?: string; secondFactor?: string },
    ): Promise<IssuedTokens> {
      return db.transaction(async (tx) => {
        const [session] = await tx
          .insert(sessions)
          .values({
            userId,
            expiresAt: new Date(Date.now() + refreshTtlSeconds * 1000),
            userAgent: meta.userAgent?.slice(0, 300) ?? null,
            ip: meta.ip ?? null,
            secondFactor: meta.secondFactor ?? null,
          })
          .returning({ id: sessions.id });
        if (!session) throw new Error("session insert failed");
        const refreshToken = await issueRefresh(session.id, tx);
        const accessToken = await signer.sign({ sub: userId, sid: session.id });
        return { accessToken, expiresIn: signer.ttlSeconds, refreshToken, sessionId: session.id };
      });
    },

    /** Rotates a refresh token. A token used before (outside the grace window) revokes the whole session. */
    async refresh(token: string): Promise<IssuedTokens & { userId: string }> {
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ token: refreshTokens, session: sessions })
          .from(refreshTokens)
          .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
          .where(eq(refreshTokens.tokenHash, hashToken(token)))
          .for("update");
        if (!row) return { error: unauthenticated("Invalid refresh token", "TOKEN_INVALID") };
        const { session } = row;
        if (session.revokedAt) return { error: unauthenticated("Session ended", "SESSION_REVOKED") };
        if (session.expiresAt.getTime() <= Date.now())
          return { error: unauthenticated("Session expired", "TOKEN_EXPIRED") };
        if (row.token.usedAt) {
          if (Date.now() - row.token.usedAt.getTime() < REUSE_GRACE_MS) {
            return { error: unauthenticated("Refresh token already used", "TOKEN_INVALID") };
          }
          await revoke(session.id, "refresh_token_reuse", tx);
          return {
            error: unauthenticated("Refresh token reused: session ended", "SESSION_REVOKED"),
            revoked: session.id,
          };
        }
        const used = await tx
          .update(refreshTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(refreshTokens.id, row.token.id), isNull(refreshTokens.usedAt)))
          .returning({ id: refreshTokens.id });
        if (used.length === 0)
          return { error: unauthenticated("Refresh token already used", "TOKEN_INVALID") };
        const refreshToken = await issueRefresh(session.id, tx);
        const accessToken = await signer.sign({ sub: session.userId, sid: session.id });
        return {
          tokens: {
            accessToken,
            expiresIn: signer.ttlSeconds,
            refreshToken,
            sessionId: session.id,
            userId: session.userId,
          },
        };
      });
      if ("tokens" in outcome && outcome.tokens) return outcome.tokens;
      // the whole family is revoked: every process must refuse its access tokens now
      if ("revoked" in outcome && outcome.revoked) changes?.publish(`session:${outcome.revoked}`);
      throw outcome.error;
    },

    async isActive(sessionId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(
          and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
        );
      return Boolean(row);
    },

    /** The session if it is live (not revoked, not expired): whose it is and until when. */
    async findLive(sessionId: string): Promise<{ userId: string; expiresAt: Date } | undefined> {
      const [row] = await db
        .select({ userId: sessions.userId, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(
          and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
        );
      return row;
    },

    async sessionOfRefreshToken(token: string): Promise<string | undefined> {
      const [row] = await db
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(token)));
      return row?.sessionId;
    },

    revoke,

    /** Ends every session of a user, except `keep` (the caller's own, after a password change). */
    async revokeAllForUser(userId: string, reason: string, keep?: string, tx: DbOrTx = db) {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            keep ? ne(sessions.id, keep) : undefined,
          ),
        );
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
