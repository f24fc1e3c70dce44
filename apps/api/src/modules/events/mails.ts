import { langPrefix, type PushMessage, pickText, type Speak, toLocale } from "@parlons/contract";
import type { Db, DbOrTx } from "../../db/client";
import { formatDateTime, type Lang } from "../../lib/format";
import { textsOf } from "../../lib/naming";
import { fill, wordsOf } from "../../locales";
import type { MailOutbox } from "../mail/outbox";
import type { TransactionalMails } from "../mail/transactional";
import type { SettingsService } from "../settings/service";
import type { UserService } from "../users/service";
import { eventIcs } from "./ics";
import type { EventRow, RegistrationRow } from "./rows";

/** What the events module mails: a booking's confirmation with its .ics, and the lines of an event. */
export function createEventMails(deps: {
  db: Db;
  users: Pick<UserService, "findById">;
  mails: TransactionalMails;
  outbox: Pick<MailOutbox, "enqueue">;
  settings: Pick<SettingsService, "current">;
  publicUrl: string;
}) {
  const { db, users } = deps;

  const langOf = (speak: Speak): Lang => toLocale(speak);
  const eventPage = (eventId: string, lang: Lang) => `${deps.publicUrl}${langPrefix(lang)}/events/${eventId}`;

  /** The event's lines in a mail: title, time (Paris time, with its zone), place. */
  function eventDetails(event: EventRow, lang: Lang, places: number): string {
    const words = wordsOf(lang).words.eventLines;
    return [
      pickText(textsOf(event.titleFr, event.titleEn, event.translations, "title"), lang),
      formatDateTime(event.startsAt, lang),
      event.kind === "in_person" ? (event.location ?? "") : words.online,
      fill(words.places, { count: places }),
    ]
      .filter(Boolean)
      .join("\n");
  }

  /** The reminder's notification: the event's title and time, opening its page. */
  function eventPush(event: EventRow, lang: Lang): PushMessage {
    const words = wordsOf(lang).words.push;
    return {
      title: fill(words.eventTitle, {
        title: pickText(textsOf(event.titleFr, event.titleEn, event.translations, "title"), lang),
      }),
      body: fill(words.eventBody, { when: formatDateTime(event.startsAt, lang) }),
      url: `${langPrefix(lang)}/events/${event.id}`,
      tag: `event:${event.id}`,
    };
  }

  /** An .ics of the event for a reader (the meeting link only for staff and learners holding a booking). */
  async function icsFor(
    event: EventRow,
    lang: Lang,
    withMeetingLink: boolean,
    tx: DbOrTx = db,
  ): Promise<string> {
    const setting = await deps.settings.current(tx);
    return await eventIcs(event, {
      lang,
      pageUrl: eventPage(event.id, lang),
      withMeetingLink,
      organizer: { name: setting.seller.name, email: setting.contact_email },
    });
  }

  /** Queues, in `tx`, the confirmation of a booking (a new one or one promoted from the waiting list), with its .ics. */
  async function mailBooked(event: EventRow, registration: RegistrationRow, tx: DbOrTx): Promise<void> {
    const user = await users.findById(registration.userId, tx);
    if (!user) return;
    const lang = langOf(user.speak);
    const mail = await deps.mails.compose(
      "event-booked",
      { email: user.email, fullName: user.fullName, speak: user.speak },
      eventPage(event.id, lang),
      { details: eventDetails(event, lang, registration.places), tx },
    );
    await deps.outbox.enqueue(
      {
        key: `registration:${registration.id}:booked`,
        userId: user.id,
        to: user.email,
        ...mail,
        attachments: [
          {
            filename: `${event.slug}.ics`,
            contentType: "text/calendar; charset=utf-8; method=PUBLISH",
            content: await icsFor(event, lang, true, tx),
          },
        ],
      },
      tx,
    );
  }

  return { langOf, eventPage, eventDetails, eventPush, icsFor, mailBooked };
}

export type EventMails = ReturnType<typeof createEventMails>;
