import type { MessageInstance } from "antd/es/message/interface";
import type { NotificationInstance } from "antd/es/notification/interface";
import { toast } from "./toast";

interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
}

/** The mounted <App>s' instances, the innermost last (one unmounts when its page goes). */
const bound: Feedback[] = [];

/**
 * The API client's own errors (network gone, the server failed), told outside any component.
 * Inside a page built with antd they use its <App>'s toasts (`FeedbackBridge` binds them, so they
 * follow its theme and locale); on a page drawn without antd, the plain toaster (lib/toast.ts):
 * an error never loads antd.
 */
export function showApiError(text: string, detail?: string): void {
  const last = bound.at(-1);
  if (!last) toast("error", detail ? `${text} ${detail}` : text);
  else if (detail) last.notification.warning({ title: text, description: detail });
  else void last.message.error(text);
}

/** Returns the unbinding, for the effect's clean-up. */
export function bindFeedback(message: MessageInstance, notification: NotificationInstance): () => void {
  const entry = { message, notification };
  bound.push(entry);
  return () => {
    bound.splice(bound.indexOf(entry), 1);
  };
}
