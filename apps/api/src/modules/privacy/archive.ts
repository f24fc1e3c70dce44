import { count, eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client";
import { analyticsActive } from "../../db/schema/analytics";
import {
  oauthAccounts,
  passkeyCredentials,
  sessions as sessionRows,
  totpCredentials,
} from "../../db/schema/auth";
import {
  couponRedemptions,
  customerPlans,
  payments,
  purchases,
  receipts,
  subscriptionTrials,
} from "../../db/schema/billing";
import { certificates } from "../../db/schema/certificates";
import { events, registrations } from "../../db/schema/events";
import { listeningMinutes, studyReminders, studySessions, studySettings } from "../../db/schema/habit";
import { lessonProgress } from "../../db/schema/lessons";
import { mailDeliveries, mailOutbox, mailUnsubscribes } from "../../db/schema/mail";
import { notifications } from "../../db/schema/notifications";
import { handsFreeFiles } from "../../db/schema/practice";
import { dataRequests } from "../../db/schema/privacy";
import { pushSubscriptions } from "../../db/schema/push";
import { lineRecordings, reviewCards, reviewLogs, reviewRemovedLines } from "../../db/schema/review";
import { userRoles, users as userRows } from "../../db/schema/users";
import { notFound } from "../../lib/errors";

/**
 * The learner's data export: every section of their rows as JSON (no secret: no hash, no token),
 * and how many rows it holds (a large one is a job with a mailed link).
 */
export function createArchive(db: Database["db"]) {
  /** Each section of the archive: the learner's rows (no secret: no hash, no token). */
  const sections: Record<string, (userId: string) => Promise<unknown[]>> = {
    subscriptions: (u) => db.select().from(customerPlans).where(eq(customerPlans.userId, u)),
    // the learner's one free trial: when it was taken, and by which subscription
    subscription_trial: (u) => db.select().from(subscriptionTrials).where(eq(subscriptionTrials.userId, u)),
    payments: (u) => db.select().from(payments).where(eq(payments.userId, u)),
    receipts: (u) => db.select().from(receipts).where(eq(receipts.userId, u)),
    // courses bought once, and the coupons their checkouts and subscriptions took
    purchases: (u) => db.select().from(purchases).where(eq(purchases.userId, u)),
    coupon_redemptions: (u) =>
      db
        .select({
          purchase_id: couponRedemptions.purchaseId,
          customer_plan_id: couponRedemptions.customerPlanId,
          amount_off: couponRedemptions.amountOff,
          created_at: couponRedemptions.createdAt,
        })
        .from(couponRedemptions)
        .where(eq(couponRedemptions.userId, u)),
    lesson_progress: (u) => db.select().from(lessonProgress).where(eq(lessonProgress.userId, u)),
    review_cards: (u) => db.select().from(reviewCards).where(eq(reviewCards.userId, u)),
    review_logs: (u) => db.select().from(reviewLogs).where(eq(reviewLogs.userId, u)),
    review_removed_lines: (u) => db.select().from(reviewRemovedLines).where(eq(reviewRemovedLines.userId, u)),
    active_days: (u) =>
      db.select({ day: analyticsActive.day }).from(analyticsActive).where(eq(analyticsActive.userId, u)),
    certificates: (u) =>
      db
        .select({
          code: certificates.code,
          learner_name: certificates.learnerName,
          course_id: certificates.courseId,
          course_title_fr: certificates.courseTitleFr,
          course_title_en: certificates.courseTitleEn,
          issued_at: certificates.issuedAt,
          revoked_at: certificates.revokedAt,
        })
        .from(certificates)
        .where(eq(certificates.userId, u)),
    // what each kept recording is; its bytes are read from the account (GET /v1/recordings/{id}/audio)
    line_recordings: (u) =>
      db
        .select({
          id: lineRecordings.id,
          cue_id: lineRecordings.cueId,
          lesson_id: lineRecordings.lessonId,
          mime_type: lineRecordings.mimeType,
          size: lineRecordings.size,
          created_at: lineRecordings.createdAt,
        })
        .from(lineRecordings)
        .where(eq(lineRecordings.userId, u)),
    // the day's hands-free session MP3s made for them (the bytes are the lessons' lines, read in the app)
    hands_free_files: (u) =>
      db
        .select({
          day_start: handsFreeFiles.dayStart,
          variant: handsFreeFiles.variant,
          mode: handsFreeFiles.mode,
          items: handsFreeFiles.items,
          seconds: handsFreeFiles.seconds,
          lesson_ids: handsFreeFiles.lessonIds,
          created_at: handsFreeFiles.createdAt,
        })
        .from(handsFreeFiles)
        .where(eq(handsFreeFiles.userId, u)),
    notifications: (u) => db.select().from(notifications).where(eq(notifications.userId, u)),
    study_settings: (u) => db.select().from(studySettings).where(eq(studySettings.userId, u)),
    listening_minutes: (u) => db.select().from(listeningMinutes).where(eq(listeningMinutes.userId, u)),
    study_reminders: (u) => db.select().from(studyReminders).where(eq(studyReminders.userId, u)),
    study_sessions: (u) => db.select().from(studySessions).where(eq(studySessions.userId, u)),
    // which browsers receive reminders: the push service and since when (its keys are the browser's)
    push_subscriptions: (u) =>
      db
        .select({ endpoint: pushSubscriptions.endpoint, created_at: pushSubscriptions.createdAt })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, u)),
    mail_unsubscribes: (u) => db.select().from(mailUnsubscribes).where(eq(mailUnsubscribes.userId, u)),
    mail_received: (u) => db.select().from(mailDeliveries).where(eq(mailDeliveries.userId, u)),
    transactional_mail: (u) =>
      db
        .select({
          subject: mailOutbox.subject,
          status: mailOutbox.status,
          created_at: mailOutbox.createdAt,
          sent_at: mailOutbox.sentAt,
        })
        .from(mailOutbox)
        .where(eq(mailOutbox.userId, u)),
    sign_in_sessions: (u) =>
      db
        .select({
          id: sessionRows.id,
          created_at: sessionRows.createdAt,
          expires_at: sessionRows.expiresAt,
          revoked_at: sessionRows.revokedAt,
        })
        .from(sessionRows)
        .where(eq(sessionRows.userId, u)),
    // whether an authenticator app is on, never its secret nor the recovery codes' digests
    two_factor: (u) =>
      db
        .select({ enabled_at: totpCredentials.enabledAt })
        .from(totpCredentials)
        .where(eq(totpCredentials.userId, u)),
    // the passkeys' names and dates, never their keys
    passkeys: (u) =>
      db
        .select({
          name: passkeyCredentials.name,
          created_at: passkeyCredentials.createdAt,
          last_used_at: passkeyCredentials.lastUsedAt,
        })
        .from(passkeyCredentials)
        .where(eq(passkeyCredentials.userId, u)),
    linked_accounts: (u) =>
      db
        .select({ provider: oauthAccounts.provider, created_at: oauthAccounts.createdAt })
        .from(oauthAccounts)
        .where(eq(oauthAccounts.userId, u)),
    data_requests: (u) =>
      db
        .select({
          id: dataRequests.id,
          kind: dataRequests.kind,
          status: dataRequests.status,
          requested_at: dataRequests.requestedAt,
          finished_at: dataRequests.finishedAt,
        })
        .from(dataRequests)
        .where(eq(dataRequests.userId, u)),
  };
  /** The tables whose rows make an archive large. */
  const counted: [PgTable, PgColumn][] = [
    [customerPlans, customerPlans.userId],
    [payments, payments.userId],
    [purchases, purchases.userId],
    [lessonProgress, lessonProgress.userId],
    [reviewCards, reviewCards.userId],
    [reviewLogs, reviewLogs.userId],
    [lineRecordings, lineRecordings.userId],
    [listeningMinutes, listeningMinutes.userId],
    [studySessions, studySessions.userId],
    [notifications, notifications.userId],
    [mailDeliveries, mailDeliveries.userId],
    [mailOutbox, mailOutbox.userId],
    [receipts, receipts.userId],
    [certificates, certificates.userId],
    [registrations, registrations.userId],
  ];

  async function account(userId: string) {
    const [user] = await db
      .select({
        id: userRows.id,
        email: userRows.email,
        full_name: userRows.fullName,
        gender: userRows.gender,
        speak: userRows.speak,
        status: userRows.status,
        plan_id: userRows.planId,
        created_at: userRows.createdAt,
        activated_at: userRows.activatedAt,
        last_login_at: userRows.lastLoginAt,
      })
      .from(userRows)
      .where(eq(userRows.id, userId));
    if (!user) throw notFound("User");
    const roles = await db
      .select({ role_id: userRoles.roleId })
      .from(userRoles)
      .where(eq(userRoles.userId, userId));
    return { ...user, roles: roles.map((r) => r.role_id) };
  }

  async function bookings(userId: string) {
    return db
      .select({
        id: registrations.id,
        event_id: registrations.eventId,
        event_title_fr: events.titleFr,
        event_title_en: events.titleEn,
        starts_at: events.startsAt,
        status: registrations.status,
        created_at: registrations.createdAt,
      })
      .from(registrations)
      .innerJoin(events, eq(events.id, registrations.eventId))
      .where(eq(registrations.userId, userId));
  }

  async function rowCount(userId: string): Promise<number> {
    let total = 0;
    for (const [table, userColumn] of counted) {
      const [row] = await db.select({ n: count() }).from(table).where(eq(userColumn, userId));
      total += row?.n ?? 0;
    }
    return total;
  }

  /** The whole archive; `onProgress` is told after each section (0 to 100). */
  async function archive(userId: string, onProgress?: (percent: number) => Promise<void>) {
    const data: Record<string, unknown> = {
      format: "parlons-data-export/1",
      generated_at: new Date().toISOString(),
      account: await account(userId),
      bookings: await bookings(userId),
    };
    const names = Object.keys(sections);
    for (const [i, name] of names.entries()) {
      data[name] = await sections[name]?.(userId);
      await onProgress?.(Math.round(((i + 1) / names.length) * 100));
    }
    return data;
  }

  return { account, rowCount, archive };
}
