import type { PushMessage, PushStatus, PushSubscriptionBody } from "@parlons/contract";
import { and, eq } from "drizzle-orm";
import webpush from "web-push";
import type { Db } from "../../db/client";
import { pushSubscriptions } from "../../db/schema/push";
import { validationFailed } from "../../lib/errors";

/** How long a push service keeps a reminder for a browser that is offline: half a day. */
const TTL_SECONDS = 12 * 3600;
const SEND_TIMEOUT_MS = 10_000;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export interface PushConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
  /** Push services' hosts (or parents of them) a subscription's endpoint may name. */
  serviceHosts: string[];
}

/** Whether the server may post to this endpoint: https on a known push service (http: a listed loopback). */
function isKnownPushService(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const listed = hosts.some((h) => host === h || host.endsWith(`.${h}`));
  if (!listed || url.username || url.password) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(host));
}

/**
 * Web Push reminders (RFC 8030, encrypted with aes128gcm, RFC 8291, signed with VAPID, RFC 8292,
 * by the `web-push` package): the learner's browsers subscribe and stop; the reminder jobs send.
 * A push service answering 404 or 410 has dropped the subscription: it is removed.
 */
export function createPushService(deps: {
  db: Db;
  config: PushConfig;
  /** Reports a failed send (a push service down, a refused message); the reminder is not retried. */
  warn: (fields: Record<string, unknown>, message: string) => void;
}) {
  const { db, config } = deps;
  const vapidDetails = {
    subject: config.subject,
    publicKey: config.publicKey,
    privateKey: config.privateKey,
  };

  async function sendOne(row: typeof pushSubscriptions.$inferSelect, payload: string): Promise<boolean> {
    const request = webpush.generateRequestDetails(
      { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
      payload,
      { vapidDetails, TTL: TTL_SECONDS, contentEncoding: "aes128gcm", urgency: "normal" },
    );
    try {
      const response = await fetch(request.endpoint, {
        method: "POST",
        headers: request.headers as Record<string, string>,
        body: request.body,
        redirect: "error",
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) {
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.id));
        return false;
      }
      if (!response.ok) deps.warn({ status: response.status }, "push service refused a reminder");
      return response.ok;
    } catch (error) {
      deps.warn({ err: error }, "push reminder not sent");
      return false;
    }
  }

  return {
    async status(userId: string, endpoint?: string): Promise<PushStatus> {
      const rows = await db
        .select({ endpoint: pushSubscriptions.endpoint })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId));
      return {
        public_key: config.publicKey,
        devices: rows.length,
        subscribed: endpoint !== undefined && rows.some((r) => r.endpoint === endpoint),
      };
    },

    /** This browser receives the caller's reminders (an endpoint already known moves to the caller). */
    async subscribe(userId: string, body: PushSubscriptionBody): Promise<PushStatus> {
      if (!isKnownPushService(body.endpoint, config.serviceHosts))
        throw validationFailed({ endpoint: ["is not a push service this server sends to"] });
      const keys = { p256dh: body.keys.p256dh, auth: body.keys.auth };
      await db
        .insert(pushSubscriptions)
        .values({ userId, endpoint: body.endpoint, ...keys })
        .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, ...keys } });
      return this.status(userId, body.endpoint);
    },

    /** This browser stops receiving the caller's reminders (nothing to stop: the same answer). */
    async unsubscribe(userId: string, endpoint: string): Promise<PushStatus> {
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
      return this.status(userId);
    },

    /** Whether the learner has a browser that receives reminders. */
    async has(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .limit(1);
      return row !== undefined;
    },

    /** Sends a reminder to every browser of the learner; how many push services took it. */
    async send(userId: string, message: PushMessage): Promise<number> {
      const rows = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      const payload = JSON.stringify(message);
      const sent = await Promise.all(rows.map((row) => sendOne(row, payload)));
      return sent.filter(Boolean).length;
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
