import type { MessageInstance } from "antd/es/message/interface";
import type { NotificationInstance } from "antd/es/notification/interface";
import type { Feedback } from "./feedback-static";

/** The mounted <App>s' instances, the innermost last (one unmounts when its page goes). */
const bound: Feedback[] = [];

/**
 * Toasts used outside React components (the API client). `FeedbackBridge` plugs in the
 * instances of antd's <App> so that they follow the theme and locale; before one mounts (a public
 * page, which carries no antd), antd's static functions are loaded on first use.
 */
export function showFeedback(show: (feedback: Feedback) => void): void {
  const last = bound.at(-1);
  if (last) show(last);
  else void import("./feedback-static").then(({ staticFeedback }) => show(staticFeedback));
}

/** Returns the unbinding, for the effect's clean-up. */
export function bindFeedback(message: MessageInstance, notification: NotificationInstance): () => void {
  const entry = { message, notification };
  bound.push(entry);
  return () => {
    bound.splice(bound.indexOf(entry), 1);
  };
}
