import { langPrefix, type Speak, toLocale } from "@parlons/contract";
import { and, eq, gt, isNull, ne, or } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import { sessions } from "../../db/schema/auth";
import type { MailOutbox } from "../mail/outbox";
import type { MailPreferencesService } from "../mail/preferences-service";
import type { TransactionalMails } from "../mail/transactional";
import { addressPrefix, deviceKey, deviceOf } from "./device";

/** A device and network seen in a session of the last 90 days (or a live one) is known. */
const KNOWN_DEVICE_DAYS = 90;
/** How many of a user's recent sessions are compared (a learner has a handful). */
const COMPARED = 500;

const LABELS = {
  fr: { when: "Quand", device: "Appareil", address: "Adresse approximative", unknown: "inconnu" },
  en: { when: "When", device: "Device", address: "Approximate address", unknown: "unknown" },
  es: { when: "Cuándo", device: "Dispositivo", address: "Dirección aproximada", unknown: "desconocido" },
} as const;

interface Owner {
  id: string;
  email: string;
  fullName: string;
  speak: Speak;
}

/**
 * The mail sent when a learner signs in from a device they had not used: no earlier session (live,
 * or opened within 90 days) with the same browser, system and address network. Not on the first
 * sign-in of an account (it has no earlier session at all), not when the learner switched it off
 * (mail preferences, kind `new_device`), once per session (the outbox key is the session).
 * Runs after the sign-in's answer; a failure is logged, never fails the sign-in.
 */
export function createNewDeviceAlert(deps: {
  db: Db;
  findUser: (id: string) => Promise<Owner | undefined>;
  preferences: Pick<MailPreferencesService, "isSubscribed" | "unsubscribeParts" | "withUnsubscribeLink">;
  outbox: MailOutbox;
  mails: TransactionalMails;
  publicUrl: string;
  log?: FastifyBaseLogger;
  now?: () => Date;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const pending = new Set<Promise<void>>();

  /** True when the session's device and network were not seen in the user's other recent sessions. */
  async function isNew(session: typeof sessions.$inferSelect, at: Date): Promise<boolean> {
    const since = new Date(at.getTime() - KNOWN_DEVICE_DAYS * 86_400_000);
    const [earliest] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, session.userId), ne(sessions.id, session.id)))
      .limit(1);
    // the first sign-in of an account: nothing to compare with, nothing to warn of
    if (!earliest) return false;
    const others = await db
      .select({ userAgent: sessions.userAgent, ip: sessions.ip })
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, session.userId),
          ne(sessions.id, session.id),
          or(gt(sessions.createdAt, since), and(isNull(sessions.revokedAt), gt(sessions.expiresAt, at))),
        ),
      )
      .limit(COMPARED);
    const key = deviceKey(deviceOf(session.userAgent));
    const network = addressPrefix(session.ip);
    return !others.some((o) => deviceKey(deviceOf(o.userAgent)) === key && addressPrefix(o.ip) === network);
  }

  async function check(userId: string, sessionId: string) {
    const [session] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
    if (!session || session.userId !== userId) return;
    if (!(await isNew(session, now()))) return;
    if (!(await deps.preferences.isSubscribed(userId, "new_device"))) return;
    const user = await deps.findUser(userId);
    if (!user) return;
    const locale = toLocale(user.speak);
    const labels = LABELS[locale];
    const device = deviceOf(session.userAgent);
    // the learner's time zone is not known here: said in UTC, and said so
    const when = `${new Intl.DateTimeFormat(locale, {
      dateStyle: "full",
      timeStyle: "short",
      timeZone: "UTC",
    }).format(session.createdAt)} UTC`;
    // French puts a space before the colon
    const sep = locale === "fr" ? " : " : ": ";
    const details = [
      `${labels.when}${sep}${when}`,
      `${labels.device}${sep}${[device.browser, device.os].filter(Boolean).join(", ") || labels.unknown}`,
      `${labels.address}${sep}${addressPrefix(session.ip) ?? labels.unknown}`,
    ].join("\n");
    const link = `${deps.publicUrl}${langPrefix(locale)}/profile#sessions`;
    const rendered = await deps.mails.compose("new-device", user, link, { details });
    // the learner may switch these alerts off, from the mail itself too
    const unsubscribe = deps.preferences.unsubscribeParts(userId, "new_device", user.speak);
    const mail = deps.preferences.withUnsubscribeLink(
      rendered,
      unsubscribe.pageUrl,
      user.speak,
      "new_device",
    );
    await deps.outbox.enqueue({
      key: `new-device:${session.id}`,
      userId,
      to: user.email,
      ...mail,
      headers: unsubscribe.headers,
    });
  }

  return {
    /** A login hook: looks at the new session after the answer is written. */
    signedIn(userId: string, sessionId: string): Promise<void> {
      const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => check(userId, sessionId))
        .catch((err: unknown) => deps.log?.error({ err }, "new device alert failed"))
        .finally(() => pending.delete(done));
      pending.add(done);
      return Promise.resolve();
    },

    /** Resolves once the checks started are done (tests). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
