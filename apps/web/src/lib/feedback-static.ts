import { message, notification } from "antd";
import type { MessageInstance } from "antd/es/message/interface";
import type { NotificationInstance } from "antd/es/notification/interface";

export interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
}

/** antd's static toasts: the API client's fallback before any antd <App> has mounted. */
export const staticFeedback: Feedback = { message, notification };
