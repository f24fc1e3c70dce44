import { createHmac, timingSafeEqual } from "node:crypto";
import {
  langPrefix,
  MAIL_KINDS,
  type MailKind,
  type MailPreferences,
  type Speak,
  toLocale,
  type UnsubscribeStatus,
} from "@parlons/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { mailCampaigns, mailDeliveries, mailUnsubscribes } from "../../db/schema/mail";
import { AppError, notFound } from "../../lib/errors";
import { wordsOf } from "../../locales";

interface Owner {
  id: string;
  email: string;
  speak: Speak;
  status: string;
}

/** What a non-transactional mail carries so that one click unsubscribes (RFC 8058) and a link says how. */
export interface UnsubscribeParts {
  headers: Record<string, string>;
  /** The page that confirms and allows subscribing again, in the recipient's language. */
  pageUrl: string;
}

const invalidToken = () => new AppError(400, "TOKEN_INVALID", "This unsubscribe link is not valid");

/** c•••@example.com: enough for the owner to recognise the address, not enough to harvest it. */
function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

const UUID = /^[0-9a-f-]{36}$/i;

/**
 * Which kinds of non-transactional mail a learner refused, and the signed links that refuse them
 * without signing in. A token is `<user id>.<kind>.<HMAC>` with a key derived from the JWT secret,
 * or `<user id>.<kind>.<campaign id>.<HMAC>` in a campaign's mail (the campaign is signed too, so
 * its "unsubscribed" figure counts only its own recipients): it never expires (an unsubscribe link
 * must work in an old mail) and grants nothing else.
 */
export function createMailPreferences(deps: {
  db: Db;
  secret: string;
  /** The secret before a rotation (JWT_SECRET_PREVIOUS): links it signed keep working. */
  previousSecret?: string;
  publicUrl: string;
  findUser: (id: string) => Promise<Owner | undefined>;
}) {
  const { db } = deps;
  const keyOf = (secret: string) => createHmac("sha256", secret).update("parlons:unsubscribe:v1").digest();
  const current = keyOf(deps.secret);
  const keys = [current, ...(deps.previousSecret ? [keyOf(deps.previousSecret)] : [])];
  const mac = (userId: string, kind: MailKind, campaignId?: string, key = current) =>
    createHmac("sha256", key)
      .update(campaignId ? `${userId}\n${kind}\n${campaignId}` : `${userId}\n${kind}`)
      .digest("base64url");

  function tokenFor(userId: string, kind: MailKind, campaignId?: string): string {
    return campaignId
      ? `${userId}.${kind}.${campaignId}.${mac(userId, kind, campaignId)}`
      : `${userId}.${kind}.${mac(userId, kind)}`;
  }

  /** The user, kind (and campaign) a token names; 400 TOKEN_INVALID when malformed or not ours. */
  function verify(token: string): { userId: string; kind: MailKind; campaignId?: string } {
    const parts = token.split(".");
    if (parts.length !== 3 && parts.length !== 4) throw invalidToken();
    const [userId = "", kind = ""] = parts;
    const campaignId = parts.length === 4 ? parts[2] : undefined;
    const sig = parts[parts.length - 1] ?? "";
    if (!(MAIL_KINDS as readonly string[]).includes(kind)) throw invalidToken();
    if (!UUID.test(userId) || (campaignId !== undefined && !UUID.test(campaignId))) throw invalidToken();
    const given = Buffer.from(sig);
    const signedBy = (key: typeof current) => {
      const expected = Buffer.from(mac(userId, kind as MailKind, campaignId, key));
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (!keys.some(signedBy)) throw invalidToken();
    return campaignId ? { userId, kind: kind as MailKind, campaignId } : { userId, kind: kind as MailKind };
  }

  async function ownerOf(token: string) {
    const { userId, kind, campaignId } = verify(token);
    const user = await deps.findUser(userId);
    // an erased account (anonymised, disabled) has nobody left to ask
    if (!user || user.status === "DISABLED") throw notFound("Subscriber");
    return { user, kind, campaignId };
  }

  async function refused(userId: string, tx: DbOrTx = db): Promise<Set<MailKind>> {
    const rows = await tx
      .select({ kind: mailUnsubscribes.kind })
      .from(mailUnsubscribes)
      .where(eq(mailUnsubscribes.userId, userId));
    return new Set(rows.map((r) => r.kind));
  }

  /** Records the choice; true when it changed something. */
  async function set(userId: string, kind: MailKind, subscribed: boolean, tx: DbOrTx = db) {
    const rows = subscribed
      ? await tx
          .delete(mailUnsubscribes)
          .where(and(eq(mailUnsubscribes.userId, userId), eq(mailUnsubscribes.kind, kind)))
          .returning({ userId: mailUnsubscribes.userId })
      : await tx
          .insert(mailUnsubscribes)
          .values({ userId, kind })
          .onConflictDoNothing()
          .returning({ userId: mailUnsubscribes.userId });
    return rows.length > 0;
  }

  /**
   * An unsubscribe through a campaign's mail: its delivery to this user is marked, and the
   * campaign's figure counts it, once (a second click, or a click after subscribing again, adds
   * nothing). A campaign that did not mail this user (a token for another one) is not credited.
   */
  async function credit(tx: DbOrTx, userId: string, campaignId: string, now: Date) {
    const [delivery] = await tx
      .update(mailDeliveries)
      .set({ unsubscribedAt: now })
      .where(
        and(
          eq(mailDeliveries.campaignId, campaignId),
          eq(mailDeliveries.userId, userId),
          isNull(mailDeliveries.unsubscribedAt),
        ),
      )
      .returning({ id: mailDeliveries.id });
    if (!delivery) return;
    await tx
      .update(mailCampaigns)
      .set({ unsubscribed: sql`${mailCampaigns.unsubscribed} + 1` })
      .where(eq(mailCampaigns.id, campaignId));
  }

  async function status(token: string): Promise<UnsubscribeStatus> {
    const { user, kind } = await ownerOf(token);
    return {
      kind,
      email: maskEmail(user.email),
      lang: user.speak,
      subscribed: !(await refused(user.id)).has(kind),
    };
  }

  return {
    /** Adds the footer with the unsubscribe link of `kind` to a composed mail. */
    withUnsubscribeLink,
    tokenFor,
    verify,

    /** Headers and link of a mail of `kind` to this user (from this campaign, when it is one). */
    unsubscribeParts(userId: string, kind: MailKind, lang: Speak, campaignId?: string): UnsubscribeParts {
      const token = tokenFor(userId, kind, campaignId);
      return {
        headers: {
          "List-Unsubscribe": `<${deps.publicUrl}/api/v1/unsubscribe/${token}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
        pageUrl: `${deps.publicUrl}${langPrefix(toLocale(lang))}/unsubscribe/${token}`,
      };
    },

    /** The confirmation page of a token, in the owner's language (FR when the token names nobody). */
    async pagePath(token: string): Promise<string> {
      let lang: Speak = "FR";
      try {
        lang = (await ownerOf(token)).user.speak;
      } catch {
        // the page itself explains what is wrong with the link
      }
      return `${langPrefix(toLocale(lang))}/unsubscribe/${encodeURIComponent(token)}`;
    },

    status,

    /** One click (or the page's button): the kind is refused from now on. */
    async unsubscribe(token: string, now = new Date()): Promise<UnsubscribeStatus> {
      const { user, kind, campaignId } = await ownerOf(token);
      await db.transaction(async (tx) => {
        const changed = await set(user.id, kind, false, tx);
        if (changed && campaignId) await credit(tx, user.id, campaignId, now);
      });
      return status(token);
    },

    async resubscribe(token: string): Promise<UnsubscribeStatus> {
      const { user, kind } = await ownerOf(token);
      await set(user.id, kind, true);
      return status(token);
    },

    async isSubscribed(userId: string, kind: MailKind, tx: DbOrTx = db): Promise<boolean> {
      return !(await refused(userId, tx)).has(kind);
    },

    /** Of these users, those who refused `kind`. */
    async refusedAmong(userIds: string[], kind: MailKind, tx: DbOrTx = db): Promise<Set<string>> {
      if (userIds.length === 0) return new Set();
      const rows = await tx
        .select({ userId: mailUnsubscribes.userId })
        .from(mailUnsubscribes)
        .where(and(eq(mailUnsubscribes.kind, kind), inArray(mailUnsubscribes.userId, userIds)));
      return new Set(rows.map((r) => r.userId));
    },

    async list(userId: string): Promise<MailPreferences> {
      const off = await refused(userId);
      return { items: MAIL_KINDS.map((kind) => ({ kind, subscribed: !off.has(kind) })) };
    },

    async update(userId: string, changes: Partial<Record<MailKind, boolean>>): Promise<MailPreferences> {
      await db.transaction(async (tx) => {
        for (const kind of MAIL_KINDS) {
          const value = changes[kind];
          if (value !== undefined) await set(userId, kind, value, tx);
        }
      });
      const off = await refused(userId);
      return { items: MAIL_KINDS.map((kind) => ({ kind, subscribed: !off.has(kind) })) };
    },
  };
}
export type MailPreferencesService = ReturnType<typeof createMailPreferences>;

/** Appends the unsubscribe paragraph to a rendered mail (text and HTML), in the recipient's language. */
export function withUnsubscribeLink<T extends { text: string; html: string }>(
  mail: T,
  pageUrl: string,
  lang: Speak,
  kind: MailKind,
): T {
  const what = wordsOf(toLocale(lang)).words.unsubscribe[kind];
  const escaped = pageUrl.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return {
    ...mail,
    text: `${mail.text}\n\n--\n${what}: ${pageUrl}`,
    html: insertFooter(
      mail.html,
      `<hr><p style="font-size:12px;color:#595959"><a href="${escaped}" style="color:#595959">${what}</a></p>`,
    ),
  };
}

/** Puts a footer inside the document: before `</body>`, else `</html>`, else at the end (a fragment). */
export function insertFooter(html: string, footer: string): string {
  const close = html.search(/<\/body\s*>/i);
  const at = close >= 0 ? close : html.search(/<\/html\s*>/i);
  return at >= 0 ? `${html.slice(0, at)}${footer}${html.slice(at)}` : `${html}${footer}`;
}
