import { CalendarOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, List, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { IconTitle } from "@/components/icon-title";
import { LoadError } from "@/components/load-error";
import { formatDateRange } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { eventTitle, myUpcomingBookingsQuery } from "../api/event-queries";

const SHOWN = 3;

/** Dashboard card: the learner's next booked events. */
export function MyBookingsCard() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const query = useQuery(myUpcomingBookingsQuery);
  const { data, isPending } = query;
  const bookings = (data ?? []).slice(0, SHOWN);
  return (
    <Card
      data-testid="my-bookings"
      loading={isPending}
      title={<IconTitle icon={<CalendarOutlined aria-hidden />}>{t("events:dashboard.title")}</IconTitle>}
      extra={<Link to={to(pagePath("events"))}>{t("events:dashboard.browse")}</Link>}
    >
      {query.isError ? (
        <LoadError query={query} compact />
      ) : bookings.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("events:dashboard.empty")}>
          <ButtonLink to={to(pagePath("events"))}>{t("events:dashboard.browse")}</ButtonLink>
        </Empty>
      ) : (
        <List
          dataSource={bookings}
          renderItem={(r) => (
            <List.Item key={r.id}>
              <List.Item.Meta
                title={
                  <Link to={to(pagePath("event", { id: r.event_id }))}>{eventTitle(r.event, lang)}</Link>
                }
                description={
                  <Typography.Text type="secondary">
                    {formatDateRange(r.event.starts_at, r.event.ends_at, lang)} ·{" "}
                    {t("events:booking.mine", { count: r.places })}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
