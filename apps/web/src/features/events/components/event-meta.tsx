import { CalendarOutlined, EnvironmentOutlined, GlobalOutlined, TeamOutlined } from "@ant-design/icons";
import type { EventItem } from "@parlons/contract";
import { Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateRange } from "@/lib/format";
import { useLang } from "@/lib/use-locale";

/** Date and time (localized), kind, place or "online", places left. */
export function EventMeta({ event }: { event: EventItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <Space orientation="vertical" size={4}>
      <Typography.Text>
        <CalendarOutlined aria-hidden />{" "}
        <time dateTime={event.starts_at} data-testid="event-when">
          {formatDateRange(event.starts_at, event.ends_at, lang)}
        </time>
      </Typography.Text>
      <Typography.Text>
        {event.kind === "online" ? <GlobalOutlined aria-hidden /> : <EnvironmentOutlined aria-hidden />}{" "}
        <Tag>{t(`events:kind.${event.kind}`)}</Tag>
        {event.location}
      </Typography.Text>
      <Typography.Text data-testid="event-places" data-left={event.places_left}>
        <TeamOutlined aria-hidden />{" "}
        {event.places_left > 0
          ? t("events:card.placesLeft", { count: event.places_left })
          : t("events:card.full")}
      </Typography.Text>
    </Space>
  );
}
