import { ArrowLeftOutlined, CalendarOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Descriptions, Result, Row, Skeleton, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { DownloadButton } from "@/components/download-button";
import { LoadError } from "@/components/load-error";
import { ApiError } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { eventTitle } from "../api/event-queries";
import { downloadEventIcs, eventDescription, eventQuery } from "../api/events-api";
import { BookingControl, MyBooking } from "../components/booking-control";
import { useMyBookings } from "../lib/use-my-bookings";
import "../events.css";
import { formatDateRange } from "@/lib/format";

/** `/events/{id}`: the event, booking, and the user's booking with its cancel button. */
export function EventPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { id = "" } = useParams();
  const { status } = useSession();
  const query = useQuery(eventQuery(id, status === "authenticated"));
  const { data: event, isPending, isError } = query;
  const registration = useMyBookings().get(id);
  usePageTitle(event ? eventTitle(event, lang) : t("events:list.title"));

  // 400: an id that is no event id at all (`/events/123`) names no event either
  const notFound =
    query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
  if (isError && !notFound) {
    return (
      <div className="container section">
        <LoadError query={query} />
      </div>
    );
  }
  if (isError) {
    return (
      <div className="container section">
        <Result
          status="404"
          title={t("events:detail.notFound")}
          extra={<ButtonLink to={to(pagePath("events"))}>{t("events:detail.back")}</ButtonLink>}
        />
      </div>
    );
  }
  return (
    <div className="container section">
      <Link to={to(pagePath("events"))}>
        <ArrowLeftOutlined aria-hidden /> {t("events:detail.back")}
      </Link>
      {isPending || !event ? (
        <Skeleton active />
      ) : (
        <Row gutter={[24, 24]} style={{ marginTop: 16 }}>
          <Col xs={24} md={15}>
            <Typography.Title level={1} className="page-title">
              {eventTitle(event, lang)}
            </Typography.Title>
            {event.premium_only && (
              <Tag color="gold" data-testid="event-premium-only">
                {t("events:detail.premiumOnly")}
              </Tag>
            )}
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t("events:detail.when")}>
                <time dateTime={event.starts_at} data-testid="event-when">
                  {formatDateRange(event.starts_at, event.ends_at, lang)}
                </time>
              </Descriptions.Item>
              <Descriptions.Item label={t("events:detail.where")}>
                {t(`events:kind.${event.kind}`)}
                {event.location ? ` · ${event.location}` : ""}
              </Descriptions.Item>
            </Descriptions>
            <Typography.Paragraph className="event-description">
              {eventDescription(event, lang)}
            </Typography.Paragraph>
          </Col>
          <Col xs={24} md={9}>
            <Card title={t("events:detail.places")} data-testid="event-card" data-event-id={event.id}>
              <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
                <Typography.Text data-testid="event-places" data-left={event.places_left}>
                  {event.places_left > 0
                    ? t("events:card.placesLeft", { count: event.places_left })
                    : t("events:card.full")}
                </Typography.Text>
                {event.waiting_count > 0 && (
                  <Typography.Text type="secondary" data-testid="event-waiting">
                    {t("events:waitlist.count", { count: event.waiting_count })}
                  </Typography.Text>
                )}
                {registration ? (
                  <MyBooking registration={registration} link={event.online_url} />
                ) : (
                  <BookingControl event={event} block />
                )}
                <AddToCalendar event={event} />
              </Space>
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}

/** "Add to calendar": the event's .ics, with the meeting link once booked. */
function AddToCalendar({ event }: { event: { id: string; slug: string } }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <DownloadButton
      block
      icon={<CalendarOutlined aria-hidden />}
      save={() => downloadEventIcs(event, lang)}
      data-testid="event-ics"
    >
      {t("events:detail.addToCalendar")}
    </DownloadButton>
  );
}
