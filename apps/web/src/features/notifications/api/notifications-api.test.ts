import type { NotificationItem } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { type NotificationList, withAllRead, withOneRead } from "./notifications-api";

const item = (id: string, read_at: string | null): NotificationItem => ({
  id,
  kind: "subscription.active",
  data: {},
  link: "/billing",
  read_at,
  created_at: "2026-11-24T10:00:00.000Z",
});

const list = (): NotificationList => ({
  notifications: [item("a", null), item("b", "2026-11-20T08:00:00.000Z"), item("c", null)],
  pagination: { page: 1, pageSize: 10, total: 3 },
  unread: 5, // two of the first page and three beyond it
});

const AT = "2026-11-24T12:00:00.000Z";

describe("notifications shown read before the server answers", () => {
  it("one read: that one gets a read time, the count drops by one", () => {
    const next = withOneRead(list(), "a", AT);
    expect(next.notifications.map((n) => n.read_at)).toEqual([AT, "2026-11-20T08:00:00.000Z", null]);
    expect(next.unread).toBe(4);
  });

  it("one already read, or not in the list: nothing changes (the count is not lowered twice)", () => {
    const before = list();
    expect(withOneRead(before, "b", AT)).toBe(before);
    expect(withOneRead(before, "zzz", AT)).toBe(before);
  });

  it("all read: every unread one gets the time, earlier read times stay, the count is 0", () => {
    const next = withAllRead(list(), AT);
    expect(next.notifications.map((n) => n.read_at)).toEqual([AT, "2026-11-20T08:00:00.000Z", AT]);
    expect(next.unread).toBe(0);
    expect(next.pagination).toEqual(list().pagination);
  });
});
