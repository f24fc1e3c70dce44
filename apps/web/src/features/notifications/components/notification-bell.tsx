import { BellOutlined } from "@ant-design/icons";
import { isLocalPath, type NotificationItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Badge, Button, Popover } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useLocalePath } from "@/lib/use-locale";
import {
  latestNotificationsQuery,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
} from "../api/notifications-api";

const loadList = () => import("./notification-list");
const NotificationList = lazy(() => loadList().then((m) => ({ default: m.NotificationList })));

/** App header bell: unread badge, the latest 10 notifications, mark one or all read. */
export function NotificationBell() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { data } = useQuery(latestNotificationsQuery);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = data?.unread ?? 0;

  const openItem = (n: NotificationItem) => {
    if (!n.read_at) markRead.mutate(n.id);
    if (n.link && isLocalPath(n.link)) {
      setOpen(false);
      navigate(to(n.link));
    }
  };

  const content = (
    <Suspense fallback={<p aria-busy="true">{t("common:loading")}</p>}>
      <NotificationList
        items={data?.notifications ?? []}
        unread={unread}
        onOpenItem={openItem}
        onReadAll={() => markAll.mutate()}
        readingAll={markAll.isPending}
      />
    </Suspense>
  );

  return (
    <Popover
      content={content}
      title={t("notifications:title")}
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
    >
      <Badge count={unread} size="small" data-testid={unread > 0 ? "notifications-badge" : undefined}>
        <Button
          shape="circle"
          icon={<BellOutlined />}
          aria-label={t("notifications:button")}
          title={unread > 0 ? t("notifications:unread", { count: unread }) : t("notifications:button")}
          data-testid="notifications-button"
          // the panel's chunk, fetched while the pointer or the focus is on its way to a click
          onPointerEnter={() => void loadList()}
          onFocus={() => void loadList()}
        />
      </Badge>
    </Popover>
  );
}
