import { z } from "zod";
import { envelope, pageQuery, pagination } from "./common";
import { isLocalPath } from "./validation";

/**
 * In-app notifications. The server stores a kind and its parameters (`data`); the web renders
 * the message in the reader's language from locale keys, one per kind.
 */
export const NOTIFICATION_KINDS = [
  "subscription.active",
  "subscription.cancelled",
  "subscription.ended",
  "event.booked",
  "event.booking_cancelled",
] as const;
export const notificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKind>;

/** Message parameters: plan names, event titles, dates (ISO), counts. */
export const notificationData = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type NotificationData = z.infer<typeof notificationData>;

/** A local path of the app (no scheme, no host, no `//`), without the locale prefix. */
const localPath = z.string().refine(isLocalPath, "Expected a local path");

export const notificationItem = z.object({
  id: z.uuid(),
  kind: notificationKind,
  data: notificationData,
  link: localPath.nullable(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationListQuery = pageQuery.extend({
  /** `true`: unread notifications only. */
  unread: z.enum(["true", "false"]).optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const notificationListResponse = envelope(
  z.object({
    notifications: z.array(notificationItem),
    pagination,
    /** Unread notifications of the user in all (whatever the page). */
    unread: z.number().int(),
  }),
);
export type NotificationListResponse = z.infer<typeof notificationListResponse>;

export const notificationResponse = envelope(z.object({ notification: notificationItem }));
export type NotificationResponse = z.infer<typeof notificationResponse>;

export const notificationsReadAllResponse = envelope(z.object({ updated: z.number().int() }));
export type NotificationsReadAllResponse = z.infer<typeof notificationsReadAllResponse>;
