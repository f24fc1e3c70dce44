import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { oneTimeTokens } from "../../db/schema/auth";
import { hashToken, randomToken } from "../../lib/secret-tokens";

type TokenKind = "activation" | "password_reset" | "account_unlock";

/**
 * The links mailed to an account (activation, password reset, unlock): a random token stored
 * hashed, one live per kind and account, usable once until it expires.
 */
export function createOneTimeTokens(db: Db) {
  async function issueToken(userId: string, kind: TokenKind, ttlMs: number): Promise<string> {
    const token = randomToken();
    await db.transaction(async (tx) => {
      // a new link replaces the older ones of the same kind
      await tx
        .update(oneTimeTokens)
        .set({ usedAt: new Date() })
        .where(
          and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt)),
        );
      await tx
        .insert(oneTimeTokens)
        .values({ userId, kind, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs) });
    });
    return token;
  }

  /** The token of this kind, neither used nor expired. */
  const live = (token: string, kind: TokenKind) =>
    and(
      eq(oneTimeTokens.tokenHash, hashToken(token)),
      eq(oneTimeTokens.kind, kind),
      isNull(oneTimeTokens.usedAt),
      gt(oneTimeTokens.expiresAt, new Date()),
    );

  /** Looks a live token up without using it. */
  async function findToken(token: string, kind: TokenKind) {
    const [row] = await db.select().from(oneTimeTokens).where(live(token, kind));
    return row;
  }

  /** Marks a token used; only one caller can win, so a link works once. */
  async function consumeToken(token: string, kind: TokenKind) {
    const [row] = await db
      .update(oneTimeTokens)
      .set({ usedAt: new Date() })
      .where(live(token, kind))
      .returning();
    return row;
  }

  return { issueToken, findToken, consumeToken };
}
