import { z } from "zod";
import { envelope, pageQuery, pagination } from "./common";

/**
 * What the audit log records: every staff action and security event, one code each
 * (`<family>.<verb>`). The API writes only these codes; the staff page names each one in
 * French and English.
 */
export const AUDIT_ACTIONS = [
  // sign-in
  "auth.login_failed",
  "auth.staff_login",
  // accounts, roles and permissions
  "users.create",
  "users.update",
  "users.status",
  "users.role",
  "roles.create",
  "roles.delete",
  // plans and subscriptions
  "plans.create",
  "plans.update",
  "plans.delete",
  "subscriptions.cancel",
  "purchases.refund",
  "coupons.create",
  "coupons.update",
  "coupons.delete",
  // settings and configuration
  "settings.update",
  "configs.create",
  "configs.update",
  "configs.delete",
  // content
  "courses.create",
  "courses.update",
  "courses.delete",
  "courses.translations",
  "courses.publish",
  "courses.schedule",
  "courses.schedule_failed",
  "courses.unpublish",
  "lessons.create",
  "lessons.update",
  "lessons.publish",
  "lessons.unpublish",
  "lessons.lines",
  "lessons.delete",
  // mail
  "mail.campaign_create",
  "mail.campaign_send",
  // events
  "events.create",
  "events.update",
  "events.delete",
  "registrations.cancel",
  // data rights
  "privacy.process",
  "privacy.erase",
  // certificates
  "certificates.revoke",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about. */
export const AUDIT_TARGET_TYPES = [
  "user",
  "role",
  "plan",
  "subscription",
  "purchase",
  "coupon",
  "settings",
  "config",
  "course",
  "lesson",
  "mail_campaign",
  "event",
  "registration",
  "data_request",
  "certificate",
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

const isoDateTime = z.iso.datetime({ offset: true });

/** `GET /v1/audit`: newest first; every filter is optional and they combine. */
export const auditListQuery = pageQuery
  .extend({
    /** The actor's id, or part of the email the actor had when acting. */
    actor: z.string().trim().min(1).max(254).optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    target_type: z.enum(AUDIT_TARGET_TYPES).optional(),
    target_id: z.string().trim().min(1).max(200).optional(),
    /** "hide" leaves out the sign-ins (`auth.*`), which outnumber every other entry; shown by default. */
    sign_ins: z.enum(["show", "hide"]).optional(),
    /** Entries at or after this instant. */
    from: isoDateTime.optional(),
    /** Entries before this instant. */
    to: isoDateTime.optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), {
    message: "The start must be before the end",
    path: ["to"],
  });
export type AuditListQuery = z.infer<typeof auditListQuery>;

export const auditEntry = z.object({
  id: z.uuid(),
  created_at: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** What the target was called when the entry was written (a title, a name, an email), or null. */
  target_label: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditListResponse = envelope(z.object({ entries: z.array(auditEntry), pagination }));
export type AuditListResponse = z.infer<typeof auditListResponse>;
