import type { PushStatus, PushStatusResponse } from "@parlons/contract";
import { api } from "@/lib/api";

/**
 * Reminders as notifications on this device (Web Push): the browser's side (permission, the
 * service worker's PushManager) and the server's (the subscription it sends reminders to).
 */
export type PushState = "unsupported" | "denied" | "off" | "on";

/** Whether this browser can receive push reminders at all. */
export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

/**
 * The service worker's registration once it is active (main.tsx registers it, and the first
 * visit's install takes a while); null where none is registered within 10 s (development).
 */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  if (await navigator.serviceWorker.getRegistration()) return navigator.serviceWorker.ready;
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

const status = (endpoint?: string) =>
  api<PushStatusResponse>("/v1/push", { query: { endpoint } }).then((r) => r.data);

/** This device's state: no push here, notifications refused, or whether its subscription is the learner's. */
export async function pushState(): Promise<PushState> {
  const reg = await registration();
  if (!reg) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const subscription = await reg.pushManager.getSubscription();
  if (!subscription || Notification.permission !== "granted") return "off";
  return (await status(subscription.endpoint)).subscribed ? "on" : "off";
}

/**
 * Asks for the permission (first, while the tap still counts as one), subscribes the browser to
 * the server's key and hands the subscription to the server. "denied": the learner refused.
 */
export async function startPush(): Promise<PushState> {
  const reg = await registration();
  if (!reg) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  const { public_key } = await status();
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
  const result: PushStatus = await api<PushStatusResponse>("/v1/push/subscriptions", {
    method: "POST",
    body: subscription.toJSON(),
  }).then((r) => r.data);
  return result.subscribed ? "on" : "off";
}

/** This device stops receiving reminders: the server forgets it, the browser drops it. */
export async function stopPush(): Promise<PushState> {
  const reg = await registration();
  const subscription = await reg?.pushManager.getSubscription();
  if (!subscription) return "off";
  await api<PushStatusResponse>("/v1/push/unsubscribe", {
    method: "POST",
    body: { endpoint: subscription.endpoint },
  });
  await subscription.unsubscribe();
  return "off";
}
