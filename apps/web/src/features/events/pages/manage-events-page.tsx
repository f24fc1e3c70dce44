import { TeamOutlined } from "@ant-design/icons";
import type { EventItem, EventRegistrationItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Checkbox, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AdminListPage } from "@/components/admin-list-page";
import { EditorDrawer } from "@/components/editor-drawer";
import { ApiError, errorText } from "@/lib/api-error";
import { formatDateRange, formatDateTime } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { eventTitle } from "../api/event-queries";
import { eventRegistrationsQuery, staffEventsQuery, useDeleteEvent } from "../api/manage-events-api";
import { EventForm } from "../components/event-form";

const PAGE_SIZE = 20;

/** `/events/manage` (staff, events.manage): every event, create/edit in a drawer, delete, who booked. */
export function ManageEventsPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  usePageTitle(t("events:manage.title"));
  const [page, setPage] = useState(1);
  const [past, setPast] = useState(false);
  const list = useQuery(staffEventsQuery({ page, pageSize: PAGE_SIZE, include: past ? "past" : undefined }));
  const remove = useDeleteEvent();
  const [attendees, setAttendees] = useState<EventItem | null>(null);

  const deleteEvent = (event: EventItem, force: boolean) =>
    remove
      .mutateAsync({ id: event.id, force })
      .then(() => void message.success(t("events:manage.deleted")))
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409 && !force) {
          modal.confirm({
            title: t("events:manage.forceTitle"),
            content: t("events:manage.forceText"),
            okText: t("events:manage.forceOk"),
            okButtonProps: { danger: true },
            cancelText: t("common:actions.cancel"),
            onOk: () => deleteEvent(event, true),
          });
          return;
        }
        void message.error(errorText(error));
      });

  const confirmDelete = (event: EventItem) => {
    modal.confirm({
      title: t("events:manage.deleteTitle", { title: eventTitle(event, lang) }),
      content: t("events:manage.deleteText"),
      okText: t("events:manage.deleteOk"),
      okButtonProps: { danger: true },
      cancelText: t("common:actions.cancel"),
      onOk: () => deleteEvent(event, false),
    });
  };

  return (
    <AdminListPage<EventItem>
      title={t("events:manage.title")}
      subtitle={t("events:manage.subtitle")}
      create={{ label: t("events:manage.create"), testId: "event-create" }}
      toolbar={
        <Checkbox
          checked={past}
          onChange={(e) => {
            setPast(e.target.checked);
            setPage(1);
          }}
          style={{ marginBottom: 12 }}
        >
          {t("events:manage.showPast")}
        </Checkbox>
      }
      list={list}
      loadError={t("events:manage.loadError")}
      retry={t("events:list.retry")}
      rows={list.data?.events ?? []}
      rowKey="id"
      tableTestId="events-table"
      empty={t("events:manage.empty")}
      pages={{ page, size: PAGE_SIZE, total: list.data?.pagination.total, onChange: setPage }}
      columns={[
        {
          key: "title",
          title: t("events:manage.columns.title"),
          render: (_: unknown, event: EventItem) => <strong>{eventTitle(event, lang)}</strong>,
        },
        {
          key: "when",
          title: t("events:manage.columns.when"),
          render: (_: unknown, event: EventItem) => formatDateRange(event.starts_at, event.ends_at, lang),
        },
        {
          key: "kind",
          responsive: WIDE_ONLY,
          title: t("events:manage.columns.kind"),
          render: (_: unknown, event: EventItem) => t(`events:kind.${event.kind}`),
        },
        {
          key: "places",
          title: t("events:manage.columns.places"),
          render: (_: unknown, event: EventItem) => (
            <span data-testid="event-row-places">
              {t("events:card.of", { booked: event.places_booked, capacity: event.capacity })}
            </span>
          ),
        },
        {
          key: "status",
          title: t("events:manage.columns.status"),
          render: (_: unknown, event: EventItem) =>
            new Date(event.ends_at).getTime() < Date.now() ? (
              <Tag>{t("events:manage.past")}</Tag>
            ) : (
              <Tag color={event.active ? "green" : "default"}>
                {event.active ? t("events:manage.active") : t("events:manage.inactive")}
              </Tag>
            ),
        },
      ]}
      actionsTitle={t("events:manage.columns.actions")}
      rowActions={(event) => (
        <Button
          icon={<TeamOutlined />}
          onClick={() => setAttendees(event)}
          data-testid="event-registrations"
          aria-label={t("events:manage.registrations", { title: eventTitle(event, lang) })}
        />
      )}
      edit={{
        testId: "event-edit",
        label: (event) => t("events:manage.edit", { title: eventTitle(event, lang) }),
      }}
      remove={{
        testId: "event-delete",
        label: (event) => t("events:manage.delete", { title: eventTitle(event, lang) }),
        onClick: confirmDelete,
      }}
      editor={{
        title: (event) =>
          event
            ? t("events:manage.editTitle", { title: eventTitle(event, lang) })
            : t("events:manage.create"),
        size: 640,
        form: (event, close) => (
          <EventForm
            key={event?.id ?? "new"}
            event={event}
            onCancel={close}
            onSaved={() => {
              void message.success(t("events:manage.saved"));
              close();
            }}
          />
        ),
      }}
    >
      <EditorDrawer
        title={attendees ? t("events:manage.registrations", { title: eventTitle(attendees, lang) }) : ""}
        open={attendees !== null}
        onClose={() => setAttendees(null)}
        size={560}
      >
        {attendees && <Registrations event={attendees} />}
      </EditorDrawer>
    </AdminListPage>
  );
}

function Registrations({ event }: { event: EventItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { data, isPending } = useQuery(eventRegistrationsQuery(event.id));
  return (
    <Space orientation="vertical" style={{ width: "100%" }}>
      <Typography.Text>
        {t("events:manage.placesBooked", { count: data?.places_booked ?? 0 })}
      </Typography.Text>
      <Table<EventRegistrationItem>
        rowKey="id"
        size="small"
        data-testid="event-registrations-table"
        scroll={{ x: true }}
        loading={isPending}
        dataSource={data?.registrations ?? []}
        pagination={false}
        locale={{ emptyText: t("events:manage.registrationsEmpty") }}
        columns={[
          {
            key: "who",
            title: t("events:manage.registrationColumns.who"),
            render: (_: unknown, r: EventRegistrationItem) => (
              <Space orientation="vertical" size={0}>
                {r.user.full_name && <span>{r.user.full_name}</span>}
                <Typography.Text type="secondary">{r.user.email}</Typography.Text>
              </Space>
            ),
          },
          { key: "places", title: t("events:manage.registrationColumns.places"), dataIndex: "places" },
          {
            key: "status",
            title: t("events:manage.registrationColumns.status"),
            render: (_: unknown, r: EventRegistrationItem) => (
              <Tag color={r.status === "BOOKED" ? "green" : "default"}>
                {t(`events:manage.status.${r.status}`)}
              </Tag>
            ),
          },
          {
            key: "date",
            title: t("events:manage.registrationColumns.date"),
            render: (_: unknown, r: EventRegistrationItem) => formatDateTime(r.created_at, lang),
          },
        ]}
      />
    </Space>
  );
}
