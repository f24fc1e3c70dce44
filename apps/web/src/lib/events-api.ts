import type {
  BookingBody,
  EventItem,
  EventListResponse,
  EventResponse,
  MyRegistrationsQuery,
  RegistrationItem,
  RegistrationListResponse,
  RegistrationResponse,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api";
import type { Lang } from "./locale-path";

/**
 * Events and bookings calls shared by the events feature and the dashboard card: one key per
 * resource, so that a booking or a cancellation anywhere refreshes every view.
 */
export const eventKeys = {
  all: ["events"] as const,
  list: (query: { page: number; pageSize: number; include?: "past" }) => ["events", "list", query] as const,
  single: (id: string) => ["events", "single", id] as const,
  registrations: (id: string) => ["events", "registrations", id] as const,
  mine: (query: Partial<MyRegistrationsQuery>) => ["registrations", "mine", query] as const,
  allMine: ["registrations"] as const,
};

export function eventListQuery(
  query: { page: number; pageSize: number; include?: "past" },
  signedIn: boolean,
) {
  return queryOptions({
    // the answer depends on who asks (staff see inactive events, bookers the meeting link)
    queryKey: [...eventKeys.list(query), signedIn] as const,
    queryFn: ({ signal }) =>
      api<EventListResponse>("/v1/events", { query: { ...query }, signal }).then((r) => r.data),
    placeholderData: (previous) => previous,
  });
}

export function eventQuery(id: string, signedIn: boolean) {
  return queryOptions({
    queryKey: [...eventKeys.single(id), signedIn] as const,
    queryFn: ({ signal }) =>
      api<EventResponse>(`/v1/events/${encodeURIComponent(id)}`, { signal, silent: true }).then(
        (r) => r.data.event,
      ),
  });
}

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

/** `POST /v1/registrations/booking`; errors (EVENT_FULL, ALREADY_BOOKED…) are shown by the caller. */
export function useBookPlaces() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BookingBody) =>
      api<RegistrationResponse>("/v1/registrations/booking", { method: "POST", body, silent: true }).then(
        (r) => r.data.registration,
      ),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: eventKeys.all }),
        client.invalidateQueries({ queryKey: eventKeys.allMine }),
      ]),
  });
}

/** `POST /v1/registrations/cancel/{id}`: frees the places. */
export function useCancelBooking() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<RegistrationResponse>(`/v1/registrations/cancel/${encodeURIComponent(id)}`, {
        method: "POST",
        silent: true,
      }).then((r) => r.data.registration),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: eventKeys.all }),
        client.invalidateQueries({ queryKey: eventKeys.allMine }),
      ]),
  });
}

export function eventTitle(event: Pick<EventItem, "title_fr" | "title_en">, lang: Lang): string {
  return lang === "fr" ? event.title_fr || event.title_en : event.title_en || event.title_fr;
}

export function eventDescription(
  event: Pick<EventItem, "description_fr" | "description_en">,
  lang: Lang,
): string {
  return lang === "fr"
    ? event.description_fr || event.description_en
    : event.description_en || event.description_fr;
}

/** Choices of the places picker: 1 to the smaller of the booking limit and the places left. */
export function placeChoices(placesLeft: number, max: number): number[] {
  return Array.from({ length: Math.max(0, Math.min(max, placesLeft)) }, (_, i) => i + 1);
}

export type { RegistrationItem };
