import type {
  NotificationListResponse,
  NotificationResponse,
  NotificationsReadAllResponse,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";

const notificationKeys = { all: ["notifications"] as const };

/** The latest notifications and the unread count: polled every minute and on window focus. */
export const latestNotificationsQuery = queryOptions({
  queryKey: [...notificationKeys.all, "latest"] as const,
  queryFn: ({ signal }) =>
    api<NotificationListResponse>("/v1/notifications", {
      query: { pageSize: 10 },
      signal,
      silent: true,
    }).then((r) => r.data),
  refetchInterval: 60_000,
  refetchOnWindowFocus: true,
  staleTime: 30_000,
});

export function useMarkNotificationRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<NotificationResponse>(`/v1/notifications/${encodeURIComponent(id)}/read`, { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/** Spec §7 "Mark all notifications read". */
export function useMarkAllNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<NotificationsReadAllResponse>("/v1/notifications/read-all", { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
