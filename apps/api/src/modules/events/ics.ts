import { pickText } from "@parlons/contract";
import type { events } from "../../db/schema/events";
import type { Lang } from "../../lib/format";
import { textsOf } from "../../lib/naming";

type EventRow = typeof events.$inferSelect;

/**
 * An event as an iCalendar file (RFC 5545, through `ics`), in UTC: the calendar shows it in the
 * reader's own time zone. The meeting link goes in only for readers allowed to see it.
 */
export async function eventIcs(
  event: EventRow,
  opts: { lang: Lang; pageUrl: string; withMeetingLink: boolean; organizer: { name: string; email: string } },
): Promise<string> {
  // imported on the first calendar file, not at start-up (ics and yup: ~20 ms of CPU per start)
  const { createEvent } = await import("ics");
  const title = pickText(textsOf(event.titleFr, event.titleEn, event.translations, "title"), opts.lang);
  const link = opts.withMeetingLink && event.onlineUrl ? event.onlineUrl : null;
  const description = [
    pickText(textsOf(event.descriptionFr, event.descriptionEn, event.translations, "description"), opts.lang),
    link,
    opts.pageUrl,
  ]
    .filter(Boolean)
    .join("\n\n");
  const { error, value } = createEvent({
    uid: `${event.id}@parlons`,
    productId: "parlons/events",
    method: "PUBLISH",
    start: event.startsAt.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    end: event.endsAt.getTime(),
    endInputType: "utc",
    endOutputType: "utc",
    title,
    description,
    location: event.kind === "in_person" ? (event.location ?? undefined) : (link ?? undefined),
    url: opts.pageUrl,
    status: "CONFIRMED",
    busyStatus: "BUSY",
    organizer: opts.organizer,
    sequence: Math.floor(event.updatedAt.getTime() / 1000) % 2_000_000_000,
    alarms: [
      {
        action: "display",
        description: title,
        trigger: { hours: 1, before: true },
      },
    ],
  });
  if (error || !value) throw error ?? new Error("ics: no calendar produced");
  return value;
}
