import type {
  NotificationListResponse,
  NotificationResponse,
  NotificationsReadAllResponse,
} from "@parlons/contract";
import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
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

/** What the bell shows: the latest notifications and the number still unread. */
export type NotificationList = NotificationListResponse["data"];

/** The list with one notification read (it keeps an earlier read time), the count lowered once. */
export function withOneRead(list: NotificationList, id: string, at: string): NotificationList {
  const target = list.notifications.find((n) => n.id === id);
  if (!target || target.read_at) return list;
  return {
    ...list,
    notifications: list.notifications.map((n) => (n.id === id ? { ...n, read_at: at } : n)),
    unread: Math.max(0, list.unread - 1),
  };
}

/** The list with every notification read (those beyond the first page too: the count drops to 0). */
export function withAllRead(list: NotificationList, at: string): NotificationList {
  return {
    ...list,
    notifications: list.notifications.map((n) => (n.read_at ? n : { ...n, read_at: at })),
    unread: 0,
  };
}

/**
 * Shown at once, before the server answers (the badge goes on the click); put back as it was if
 * the server refuses, and read again from the server either way.
 */
function optimistic<V>(client: QueryClient, change: (list: NotificationList, vars: V) => NotificationList) {
  const key = latestNotificationsQuery.queryKey;
  return {
    onMutate: async (vars: V) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData(key);
      if (before) client.setQueryData(key, change(before, vars));
      return { before };
    },
    onError: (_error: unknown, _vars: V, context: { before?: NotificationList } | undefined) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  };
}

export function useMarkNotificationRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<NotificationResponse>(`/v1/notifications/${encodeURIComponent(id)}/read`, { method: "POST" }),
    ...optimistic<string>(client, (list, id) => withOneRead(list, id, new Date().toISOString())),
  });
}

/** Spec §7 "Mark all notifications read". */
export function useMarkAllNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<NotificationsReadAllResponse>("/v1/notifications/read-all", { method: "POST" }),
    ...optimistic<void>(client, (list) => withAllRead(list, new Date().toISOString())),
  });
}
