import type { EventItem, RegistrationItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Empty, Flex, Pagination, Row, Skeleton, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LoadError } from "@/components/load-error";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { eventTitle } from "../api/event-queries";
import { eventDescription, eventListQuery } from "../api/events-api";
import { BookingControl, MyBooking } from "../components/booking-control";
import { EventMeta } from "../components/event-meta";
import { useMyBookings } from "../lib/use-my-bookings";
import "../events.css";

const PAGE_SIZE = 12;

/** `/events`: upcoming events with their places left; book from the card. */
export function EventsPage() {
  const { t } = useTranslation();
  const { status } = useSession();
  const [page, setPage] = useState(1);
  const list = useQuery(eventListQuery({ page, pageSize: PAGE_SIZE }, status === "authenticated"));
  const { data, isPending, isError } = list;
  const mine = useMyBookings();
  usePageTitle(t("events:list.title"));
  const events = data?.events ?? [];

  return (
    <div className="container section">
      <Typography.Title level={1} className="page-title">
        {t("events:list.title")}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t("events:list.subtitle")}</Typography.Paragraph>
      {isError ? (
        <LoadError query={list} compact />
      ) : isPending ? (
        <Row gutter={[16, 16]}>
          {[0, 1, 2].map((i) => (
            <Col xs={24} md={12} lg={8} key={i}>
              <Card>
                <Skeleton active />
              </Card>
            </Col>
          ))}
        </Row>
      ) : events.length === 0 ? (
        <Empty description={t("events:list.empty")} data-testid="events-empty" />
      ) : (
        <Row gutter={[16, 16]}>
          {events.map((event) => (
            <Col xs={24} md={12} lg={8} key={event.id}>
              <EventCard event={event} registration={mine.get(event.id)} />
            </Col>
          ))}
        </Row>
      )}
      {(data?.pagination.total ?? 0) > PAGE_SIZE && (
        <Flex justify="center" className="section__more">
          <Pagination
            current={page}
            pageSize={PAGE_SIZE}
            total={data?.pagination.total ?? 0}
            onChange={setPage}
            showSizeChanger={false}
          />
        </Flex>
      )}
    </div>
  );
}

function EventCard({ event, registration }: { event: EventItem; registration?: RegistrationItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const title = eventTitle(event, lang);
  return (
    <Card className="event-card" data-testid="event-card" data-event-id={event.id}>
      <Typography.Title level={2} className="event-card__title">
        <Link to={to(pagePath("event", { id: event.id }))}>{title}</Link>
      </Typography.Title>
      <EventMeta event={event} />
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} className="event-card__text">
        {eventDescription(event, lang)}
      </Typography.Paragraph>
      <div className="event-card__actions">
        {registration ? (
          <MyBooking registration={registration} link={event.online_url} />
        ) : (
          <BookingControl event={event} block />
        )}
        <Link
          to={to(pagePath("event", { id: event.id }))}
          aria-label={`${t("events:list.details")} : ${title}`}
        >
          {t("events:list.details")}
        </Link>
      </div>
    </Card>
  );
}
