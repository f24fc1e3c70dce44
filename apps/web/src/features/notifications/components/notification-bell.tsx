import { BellOutlined } from "@ant-design/icons";
import { isLocalPath, type NotificationItem, pickText } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Badge, Button, Empty, Flex, List, Popover, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { formatDateTime, formatRelativeTime } from "@/lib/format";
import type { Lang } from "@/lib/locale-path";
import { useLang, useLocalePath } from "@/lib/use-locale";
import {
  latestNotificationsQuery,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
} from "../api/notifications-api";

const pick = (data: NotificationItem["data"], fr: string, en: string, lang: Lang) => {
  const text = (key: string) => (data[key] == null ? "" : String(data[key]));
  return pickText({ fr: text(fr), en: text(en) }, lang);
};

const formatDate = (value: unknown, lang: Lang) =>
  typeof value === "string" ? formatDateTime(value, lang, "long") : null;

/** The message of a notification in the UI language, from its kind and parameters. */
function useMessage() {
  const { t } = useTranslation();
  const lang = useLang();
  return (n: NotificationItem) =>
    // kinds are "group.name": nested keys of `kinds` in notifications.json
    t(`notifications:kinds.${n.kind}`, {
      plan: pick(n.data, "plan_name_fr", "plan_name", lang),
      event: pick(n.data, "event_title_fr", "event_title_en", lang),
      date: formatDate(n.data.starts_at, lang) ?? "",
      until: formatDate(n.data.access_until, lang) ?? t("notifications:unknownDate"),
      count: typeof n.data.places === "number" ? n.data.places : 1,
    });
}

/** App header bell: unread badge, the latest 10 notifications, mark one or all read. */
export function NotificationBell() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const navigate = useNavigate();
  const message = useMessage();
  const [open, setOpen] = useState(false);
  const { data } = useQuery(latestNotificationsQuery);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = data?.unread ?? 0;
  const items = data?.notifications ?? [];

  const openItem = (n: NotificationItem) => {
    if (!n.read_at) markRead.mutate(n.id);
    if (n.link && isLocalPath(n.link)) {
      setOpen(false);
      navigate(to(n.link));
    }
  };

  const content = (
    <Flex vertical gap={8} style={{ width: 340, maxWidth: "80vw" }}>
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("notifications:empty")} />
      ) : (
        <List
          size="small"
          dataSource={items}
          data-testid="notifications-list"
          renderItem={(n) => (
            <List.Item
              data-testid="notification-item"
              data-unread={n.read_at ? undefined : "true"}
              style={{ paddingInline: 4 }}
            >
              <button type="button" className="notification-item" onClick={() => openItem(n)}>
                <Typography.Text strong={!n.read_at}>{message(n)}</Typography.Text>
                <br />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  <time dateTime={n.created_at}>{formatRelativeTime(n.created_at, lang)}</time>
                </Typography.Text>
              </button>
            </List.Item>
          )}
        />
      )}
      {unread > 0 && (
        <Button
          block
          size="small"
          data-testid="notifications-read-all"
          loading={markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          {t("notifications:readAll")}
        </Button>
      )}
    </Flex>
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
        />
      </Badge>
    </Popover>
  );
}
