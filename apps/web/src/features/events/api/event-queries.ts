import {
  type EventItem,
  type MyRegistrationsQuery,
  pickField,
  type RegistrationListResponse,
} from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { Lang } from "@/lib/locale-path";

/**
 * Events and bookings reads shared by the events feature and the dashboard card: one key per
 * resource, so that a booking or a cancellation anywhere refreshes every view. The events
 * feature's own calls live in features/events/api.
 */
export const eventKeys = {
  all: ["events"] as const,
  list: (query: { page: number; pageSize: number; include?: "past" }) => ["events", "list", query] as const,
  single: (id: string) => ["events", "single", id] as const,
  registrations: (id: string) => ["events", "registrations", id] as const,
  mine: (query: Partial<MyRegistrationsQuery>) => ["registrations", "mine", query] as const,
  allMine: ["registrations"] as const,
};

/** The signed-in learner's live bookings of events not over yet, soonest first. */
export const myUpcomingBookingsQuery = queryOptions({
  queryKey: eventKeys.mine({ status: "BOOKED", upcoming: "true" }),
  queryFn: ({ signal }) =>
    api<RegistrationListResponse>("/v1/registrations/mine", {
      query: { status: "BOOKED", upcoming: "true", pageSize: 100 },
      signal,
      silent: true,
    }).then((r) => r.data.registrations),
});

export function eventTitle(event: Pick<EventItem, "title_fr" | "title_en">, lang: Lang): string {
  return pickField(event, "title", lang);
}
