import { type EventItem, MAX_PLACES_PER_BOOKING, type RegistrationItem } from "@parlons/contract";
import { App, Button, Modal, Radio, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuthModals } from "@/components/auth-modal-context";
import { errorText } from "@/lib/api-error";
import { useSession } from "@/lib/session";
import { useLang } from "@/lib/use-locale";
import { eventTitle } from "../api/event-queries";
import { placeChoices, useBookPlaces, useCancelBooking } from "../api/events-api";

/**
 * The book button of an event: signed out it opens the login dialog; signed in it asks how
 * many places (1 to min(5, places left)) and books them. A full event offers its waiting list.
 */
export function BookingControl({ event, block }: { event: EventItem; block?: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const { status } = useSession();
  const modals = useAuthModals();
  const book = useBookPlaces();
  const [open, setOpen] = useState(false);
  const [places, setPlaces] = useState(1);
  const choices = placeChoices(event.places_left, MAX_PLACES_PER_BOOKING);

  if (!event.bookable && event.waitlist_open) {
    const join = () => {
      if (status !== "authenticated") {
        modals.show("login");
        return;
      }
      book.mutate(
        { event_id: event.id, places: 1, waitlist: true },
        {
          onSuccess: (registration) =>
            void message.success(
              t("events:waitlist.joined", { position: registration.waiting_position ?? 1 }),
            ),
          onError: (error) => void message.error(errorText(error)),
        },
      );
    };
    return (
      <Button block={block} onClick={join} loading={book.isPending} data-testid="event-waitlist-join">
        {t("events:waitlist.join")}
      </Button>
    );
  }
  if (!event.bookable) {
    return (
      <Button block={block} disabled data-testid="event-book">
        {event.places_left === 0 ? t("events:card.full") : t("events:card.started")}
      </Button>
    );
  }
  if (status !== "authenticated") {
    return (
      <Button block={block} type="primary" onClick={() => modals.show("login")} data-testid="event-book">
        {t("events:booking.book")}
      </Button>
    );
  }

  const confirm = () => {
    book.mutate(
      { event_id: event.id, places, waitlist: false },
      {
        onSuccess: (registration) => {
          void message.success(t("events:booking.booked", { count: registration.places }));
          setOpen(false);
        },
        onError: (error) => {
          void message.error(errorText(error));
          setOpen(false);
        },
      },
    );
  };

  return (
    <>
      <Button
        block={block}
        type="primary"
        onClick={() => {
          setPlaces(1);
          setOpen(true);
        }}
        data-testid="event-book"
      >
        {t("events:booking.book")}
      </Button>
      <Modal
        open={open}
        title={t("events:booking.dialogTitle", { title: eventTitle(event, lang) })}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        closable={{ "aria-label": t("common:actions.close") }}
        footer={
          <Space>
            <Button onClick={() => setOpen(false)}>{t("events:booking.cancel")}</Button>
            <Button type="primary" loading={book.isPending} onClick={confirm} data-testid="booking-confirm">
              {t("events:booking.confirm")}
            </Button>
          </Space>
        }
      >
        <Typography.Paragraph id={`places-${event.id}`}>{t("events:booking.places")}</Typography.Paragraph>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          value={places}
          onChange={(e) => setPlaces(Number(e.target.value))}
          aria-labelledby={`places-${event.id}`}
          data-testid="booking-places"
          options={choices.map((n) => ({ value: n, label: String(n) }))}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t("events:card.placesLeft", { count: event.places_left })}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}

/** "You booked 2 places", the meeting link once booked, and the cancel button (with a confirm dialog). */
export function MyBooking({ registration, link }: { registration: RegistrationItem; link?: string | null }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const cancel = useCancelBooking();
  const started = new Date(registration.event.starts_at).getTime() <= Date.now();

  const waiting = registration.status === "WAITING";
  const confirmCancel = () => {
    modal.confirm({
      title: t(waiting ? "events:waitlist.leaveTitle" : "events:booking.cancelTitle"),
      content: t(waiting ? "events:waitlist.leaveText" : "events:booking.cancelText"),
      okText: t(waiting ? "events:waitlist.leaveOk" : "events:booking.cancelOk"),
      okButtonProps: { danger: true },
      cancelText: t("events:booking.keep"),
      onOk: () =>
        cancel
          .mutateAsync(registration.id)
          .then(() => void message.success(t("events:booking.cancelled")))
          .catch((error: unknown) => void message.error(errorText(error))),
    });
  };

  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }} data-testid="my-booking">
      <Typography.Text strong data-testid="my-booking-status" data-status={registration.status}>
        {waiting
          ? t("events:waitlist.position", { position: registration.waiting_position ?? 1 })
          : t("events:booking.mine", { count: registration.places })}
      </Typography.Text>
      {link && (
        <Typography.Link href={link} target="_blank" rel="noopener noreferrer">
          {t("events:booking.joinLink")}
        </Typography.Link>
      )}
      {!started && (
        <Button danger onClick={confirmCancel} loading={cancel.isPending} data-testid="booking-cancel">
          {t(waiting ? "events:waitlist.leave" : "events:booking.cancelBooking")}
        </Button>
      )}
    </Space>
  );
}
