import { message as staticMessage, notification as staticNotification } from "antd";
import type { MessageInstance } from "antd/es/message/interface";
import type { NotificationInstance } from "antd/es/notification/interface";

/**
 * Toasts used outside React components (the API client). `FeedbackBridge` plugs in the
 * instances of antd's <App> so that they follow the theme and locale; the static
 * functions are the fallback before it mounts.
 */
export const feedback: { message: MessageInstance; notification: NotificationInstance } = {
  message: staticMessage,
  notification: staticNotification,
};

export function bindFeedback(message: MessageInstance, notification: NotificationInstance): void {
  feedback.message = message;
  feedback.notification = notification;
}
