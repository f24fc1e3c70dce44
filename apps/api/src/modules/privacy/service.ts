import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type DataRequest, type DataRequestListQuery, toLocale } from "@parlons/contract";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client";
import { pageOf } from "../../db/paginate";
import { analyticsActive } from "../../db/schema/analytics";
import {
  oauthAccounts,
  oneTimeTokens,
  passkeyChallenges,
  passkeyCredentials,
  recoveryCodes,
  signInChallenges,
  totpCredentials,
} from "../../db/schema/auth";
import { customerPlans, receipts, subscriptionTrials } from "../../db/schema/billing";
import { certificates } from "../../db/schema/certificates";
import { registrations } from "../../db/schema/events";
import { listeningMinutes, studyReminders, studySessions, studySettings } from "../../db/schema/habit";
import { lessonProgress, lessonProgressRequests } from "../../db/schema/lessons";
import { mailDeliveries, mailOutbox, mailUnsubscribes } from "../../db/schema/mail";
import { notifications } from "../../db/schema/notifications";
import { podcastFeeds } from "../../db/schema/podcast";
import { handsFreeFiles } from "../../db/schema/practice";
import { dataRequests } from "../../db/schema/privacy";
import { pushSubscriptions } from "../../db/schema/push";
import { lineRecordings, reviewCards, reviewLogs, reviewRemovedLines } from "../../db/schema/review";
import { userRoles, users as userRows } from "../../db/schema/users";
import type { Mailer } from "../../integrations/mail/mailer";
import type { ChangeBus } from "../../lib/change-bus";
import { AppError, notFound } from "../../lib/errors";
import { verifyPassword } from "../../lib/passwords";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../lib/private-files";
import { hashToken, randomToken } from "../../lib/secret-tokens";
import type { AuditService } from "../audit/service";
import type { SessionService } from "../auth/session-service";
import type { BillingService } from "../billing/service";
import type { RecordingService } from "../review/recordings";
import { createArchive } from "./archive";
import { exportMail } from "./export-mail";

type Db = Database["db"];
type Row = typeof dataRequests.$inferSelect;

/** How long a mailed download link works. */
const LINK_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * The learner's data rights, in one place so that no table is forgotten: the export reads, and
 * the erasure clears, every table that holds a row of the learner's (test/privacy.test.ts walks
 * the schema and fails when a table with a user column is not listed here). This is the one
 * module allowed to read other modules' tables, and only for the learner's own rows.
 *
 * Export: every section of the learner's data as JSON; sent at once when small, otherwise a job
 * (progress in data_requests) writes the archive to disk and mails an unguessable link.
 * Erasure: the provider's subscription is cancelled first (nothing is erased while the learner
 * could still be charged), then in one transaction the account is anonymised, sessions ended,
 * learning data, notifications, bookings and sign-in links deleted; subscriptions, payments and
 * courses bought (with the coupons they took) stay (accounting keeps them ten years, French commercial code L123-22), now pointing at an
 * anonymous account.
 */
export function createPrivacyService(deps: {
  db: Db;
  /** Recordings kept on the account: their bytes are in the media storage. */
  recordings: Pick<RecordingService, "markFiles" | "deleteFiles">;
  sessions: SessionService;
  billing: BillingService;
  audit: AuditService;
  mailer: Mailer;
  changes?: ChangeBus;
  log: FastifyBaseLogger;
  dataDir: string;
  publicUrl: string;
  /** Above this many rows the export is a job with a mailed link. */
  syncMaxRows: number;
}) {
  const { db } = deps;
  const exportsDir = path.join(deps.dataDir, "exports");

  const { account, rowCount, archive } = createArchive(db);

  const present = (r: Row): DataRequest => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    progress: r.progress,
    email: r.email,
    requested_at: r.requestedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    expires_at: r.expiresAt?.toISOString() ?? null,
  });

  /** Runs an export job: the archive to disk, then the mailed link. Never throws (the job records it). */
  async function runExport(id: string, staffId?: string): Promise<void> {
    const [claimed] = await db
      .update(dataRequests)
      .set({ status: "running", progress: 0, processedBy: staffId ?? null })
      .where(and(eq(dataRequests.id, id), inArray(dataRequests.status, ["pending", "failed"])))
      .returning();
    if (!claimed?.userId) return;
    try {
      const data = await archive(claimed.userId, async (progress) => {
        await db
          .update(dataRequests)
          .set({ progress: Math.min(progress, 99) })
          .where(eq(dataRequests.id, id));
      });
      await mkdir(exportsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const file = `${id}.json`;
      await writeFile(path.join(exportsDir, file), JSON.stringify(data, null, 2), {
        mode: PRIVATE_FILE_MODE,
      });
      const token = randomToken();
      const expiresAt = new Date(Date.now() + LINK_TTL_MS);
      // the link works before it is mailed; the request is "done" (ready, link mailed) only once
      // the mail is sent: a mail that fails leaves it failed, to run again, never "link sent"
      await db
        .update(dataRequests)
        .set({ file, tokenHash: hashToken(token), expiresAt })
        .where(eq(dataRequests.id, id));
      const link = `${deps.publicUrl}/api/v1/data-exports/${token}`;
      const lang = toLocale((data.account as { speak?: string }).speak);
      await deps.mailer.send({ to: claimed.email ?? "", ...exportMail(lang, link) });
      await db
        .update(dataRequests)
        .set({ status: "done", progress: 100, finishedAt: new Date() })
        .where(eq(dataRequests.id, id));
    } catch (err) {
      deps.log.error({ err, request: id }, "data export failed");
      await db
        .update(dataRequests)
        .set({ status: "failed", error: err instanceof Error ? err.message.slice(0, 500) : "failed" })
        .where(eq(dataRequests.id, id));
    }
  }

  return {
    archive,

    /** The archive at once (small accounts), or a job whose link is mailed (large ones). */
    async requestExport(
      userId: string,
    ): Promise<{ archive: Record<string, unknown> } | { request: DataRequest }> {
      if ((await rowCount(userId)) <= deps.syncMaxRows) return { archive: await archive(userId) };
      const { email } = await account(userId);
      const [row] = await db.insert(dataRequests).values({ userId, email, kind: "export" }).returning();
      if (!row) throw new Error("data request not created");
      // the job runs in this process; a request left pending by a restart is run again by staff
      setImmediate(() => void runExport(row.id));
      return { request: present(row) };
    },

    async mine(userId: string): Promise<DataRequest[]> {
      const rows = await db
        .select()
        .from(dataRequests)
        .where(eq(dataRequests.userId, userId))
        .orderBy(desc(dataRequests.requestedAt))
        .limit(20);
      return rows.map(present);
    },

    /** The archive a mailed link names, if the link is valid and not expired. */
    async download(token: string): Promise<Buffer | null> {
      const [row] = await db
        .select()
        .from(dataRequests)
        .where(eq(dataRequests.tokenHash, hashToken(token)));
      if (!row?.file || row.status !== "done" || !row.expiresAt || row.expiresAt.getTime() < Date.now())
        return null;
      try {
        return await readFile(path.join(exportsDir, path.basename(row.file)));
      } catch {
        return null;
      }
    },

    async list(query: DataRequestListQuery) {
      const where = query.status ? eq(dataRequests.status, query.status) : undefined;
      const { rows, pagination } = await pageOf(db, query, dataRequests, where, [
        desc(dataRequests.requestedAt),
      ]);
      return { requests: rows.map((r) => ({ ...present(r), user_id: r.userId })), pagination };
    },

    /** Staff run a pending or failed export job by hand; it completes before the answer. */
    async process(id: string, staff: { id: string; email: string }): Promise<DataRequest> {
      const [row] = await db.select().from(dataRequests).where(eq(dataRequests.id, id));
      if (!row) throw notFound("Data request");
      if (row.kind !== "export" || (row.status !== "pending" && row.status !== "failed")) {
        throw new AppError(409, "CONFLICT", `This request cannot be processed (${row.kind}, ${row.status})`);
      }
      await runExport(id, staff.id);
      await deps.audit.record({
        actor: staff,
        action: "privacy.process",
        target: { type: "data_request", id },
      });
      const [after] = await db.select().from(dataRequests).where(eq(dataRequests.id, id));
      if (!after) throw notFound("Data request");
      return present(after);
    },

    /** The learner closes their account, confirmed by their password. */
    async eraseAccount(userId: string, password: string): Promise<void> {
      const [user] = await db
        .select({ email: userRows.email, passwordHash: userRows.passwordHash })
        .from(userRows)
        .where(eq(userRows.id, userId));
      if (!user) throw notFound("User");
      if (!(await verifyPassword(user.passwordHash, password))) {
        throw new AppError(422, "WRONG_PASSWORD", "The password is wrong", {
          password: ["The password is wrong"],
        });
      }
      // the provider first: an account is never erased while it can still be charged
      const live = await db
        .select({ id: customerPlans.id })
        .from(customerPlans)
        .where(and(eq(customerPlans.userId, userId), inArray(customerPlans.status, ["ACTIVE", "SUSPENDED"])));
      for (const { id } of live) await deps.billing.cancel(id);

      const anonymous = `deleted-${userId}@deleted.invalid`;
      const recordingKeys = await db.transaction(async (tx) => {
        await tx
          .update(userRows)
          .set({
            email: anonymous,
            passwordHash: null,
            fullName: "",
            gender: null,
            courseId: null,
            status: "DISABLED",
            lastLoginAt: null,
            updatedAt: new Date(),
          })
          .where(eq(userRows.id, userId));
        await deps.sessions.revokeAllForUser(userId, "account_deleted", undefined, tx);
        for (const table of [
          oneTimeTokens,
          oauthAccounts,
          userRoles,
          totpCredentials,
          recoveryCodes,
          signInChallenges,
          passkeyCredentials,
          passkeyChallenges,
          podcastFeeds,
          pushSubscriptions,
          subscriptionTrials,
        ] as const) {
          await tx.delete(table).where(eq(table.userId, userId));
        }
        for (const table of [
          lessonProgress,
          lessonProgressRequests,
          reviewLogs,
          reviewCards,
          reviewRemovedLines,
          notifications,
          analyticsActive,
          studySettings,
          listeningMinutes,
          studyReminders,
          studySessions,
          mailUnsubscribes,
        ] as const) {
          await tx.delete(table).where(eq(table.userId, userId));
        }
        // the recordings' keys as their rows go (a recording kept meanwhile cannot slip between)
        const recordings = await tx
          .delete(lineRecordings)
          .where(eq(lineRecordings.userId, userId))
          .returning({ key: lineRecordings.storageKey });
        // the day's hands-free session MP3s, made from their deck: their bytes go with the recordings'
        const sessionFiles = await tx
          .delete(handsFreeFiles)
          .where(eq(handsFreeFiles.userId, userId))
          .returning({ key: handsFreeFiles.storageKey });
        await tx.delete(registrations).where(eq(registrations.userId, userId));
        await tx.update(mailDeliveries).set({ email: anonymous }).where(eq(mailDeliveries.userId, userId));
        // mails not sent yet would reach a closed account; sent ones carry the address
        await tx.delete(mailOutbox).where(eq(mailOutbox.userId, userId));
        // a receipt is an accounting document: kept as issued (buyer's name included, as the law
        // asks of an invoice), only the e-mail address, which it does not need, is removed
        await tx.update(receipts).set({ buyerEmail: anonymous }).where(eq(receipts.userId, userId));
        // a certificate names its learner: the name goes, and the certificate is revoked (a
        // verifier then reads "revoked", never a name, nor a valid certificate of nobody)
        await tx
          .update(certificates)
          .set({
            learnerName: "",
            revokedAt: sql`coalesce(${certificates.revokedAt}, now())`,
            revokeReason: sql`coalesce(${certificates.revokeReason}, 'account deleted')`,
          })
          .where(eq(certificates.userId, userId));
        await tx
          .update(dataRequests)
          .set({ email: null, tokenHash: null })
          .where(eq(dataRequests.userId, userId));
        await tx.insert(dataRequests).values({
          userId,
          kind: "erasure",
          status: "done",
          progress: 100,
          finishedAt: new Date(),
        });
        await deps.audit.record(
          {
            actor: { id: userId, email: anonymous },
            action: "privacy.erase",
            target: { type: "user", id: userId },
          },
          tx,
        );
        const keys = [...recordings, ...sessionFiles].map((r) => r.key);
        await deps.recordings.markFiles(keys, tx);
        return keys;
      });
      // their bookings freed places at events others booked
      deps.changes?.publish(`user:${userId}`, "events");
      // the recordings' and sessions' bytes, once their rows are gone
      await deps.recordings.deleteFiles(recordingKeys);
      // archives already written are personal data too
      const files = await db
        .select({ file: dataRequests.file })
        .from(dataRequests)
        .where(eq(dataRequests.userId, userId));
      for (const { file } of files)
        if (file) await rm(path.join(exportsDir, path.basename(file)), { force: true });
    },
  };
}
