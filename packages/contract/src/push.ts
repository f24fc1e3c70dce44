import { z } from "zod";
import { envelope } from "./common";

/** base64url, as PushSubscription.toJSON() gives the keys. */
const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/);

/**
 * A browser's push subscription, as PushSubscription.toJSON() gives it: the push service's
 * endpoint (https; the server posts there only when its host is one it knows), the browser's
 * P-256 key (65 bytes) and its 16-byte authentication secret.
 */
export const pushSubscriptionBody = z.object({
  endpoint: z.url().max(1000),
  keys: z.object({ p256dh: base64url(86, 90), auth: base64url(22, 26) }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

/** Which browser stops: its subscription's endpoint. */
export const pushEndpointBody = z.object({ endpoint: z.url().max(1000) });
export type PushEndpointBody = z.infer<typeof pushEndpointBody>;

/**
 * Push reminders for the caller: the server's public VAPID key (applicationServerKey) and how
 * many of the caller's browsers receive them; `subscribed`: the endpoint asked about (if any) is one.
 */
export const pushStatus = z.object({
  public_key: z.string(),
  devices: z.number().int(),
  subscribed: z.boolean(),
});
export type PushStatus = z.infer<typeof pushStatus>;
export const pushStatusResponse = envelope(pushStatus);
export type PushStatusResponse = z.infer<typeof pushStatusResponse>;

/** What a reminder notification carries (encrypted for the browser): the service worker shows it. */
export interface PushMessage {
  title: string;
  body: string;
  /** The page to open on a click: a path of this site. */
  url: string;
  /** Replaces an earlier notification of the same tag. */
  tag: string;
}

/** Whether this browser (its subscription's endpoint) is one of the caller's. */
export const pushStatusQuery = z.object({ endpoint: z.url().max(1000).optional() });
