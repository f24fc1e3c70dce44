import { type NotificationItem, pickText } from "@parlons/contract";
import { Button, Empty, Flex, List, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatRelativeTime } from "@/lib/format";
import type { Lang } from "@/lib/locale-path";
import { useLang } from "@/lib/use-locale";

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

/**
 * The bell's panel: the latest notifications and "mark all read". Its own chunk, loaded when the
 * bell is opened (or hovered): antd's List brings Pagination and Select, which the pages
 * behind the bell mostly do without (issue 26).
 */
export function NotificationList({
  items,
  unread,
  onOpenItem,
  onReadAll,
  readingAll,
}: {
  items: NotificationItem[];
  unread: number;
  onOpenItem: (n: NotificationItem) => void;
  onReadAll: () => void;
  readingAll: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const message = useMessage();
  return (
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
              <button type="button" className="notification-item" onClick={() => onOpenItem(n)}>
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
          loading={readingAll}
          onClick={onReadAll}
        >
          {t("notifications:readAll")}
        </Button>
      )}
    </Flex>
  );
}
