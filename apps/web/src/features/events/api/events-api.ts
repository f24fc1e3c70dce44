import {
  type BookingBody,
  type EventItem,
  type EventListResponse,
  type EventResponse,
  pickField,
  type RegistrationListResponse,
  type RegistrationResponse,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiFile } from "@/lib/api";
import { saveFile } from "@/lib/download";
import type { Lang } from "@/lib/locale-path";
import { eventKeys } from "./event-queries";

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

/** The learner's bookings and waiting-list places of events not over yet (cancelled ones left out). */
export const myLiveRegistrationsQuery = queryOptions({
  queryKey: eventKeys.mine({ upcoming: "true" }),
  queryFn: ({ signal }) =>
    api<RegistrationListResponse>("/v1/registrations/mine", {
      query: { upcoming: "true", pageSize: 100 },
      signal,
      silent: true,
    }).then((r) => r.data.registrations.filter((registration) => registration.status !== "CANCELLED")),
});

/** Saves the event's .ics (the meeting link is in it once booked), in the page's language. */
export async function downloadEventIcs(event: Pick<EventItem, "id" | "slug">, lang: Lang) {
  const file = await apiFile(`/v1/events/${encodeURIComponent(event.id)}/ics`, { query: { lang } });
  saveFile(`${event.slug}.ics`, file);
}

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

export function eventDescription(
  event: Pick<EventItem, "description_fr" | "description_en">,
  lang: Lang,
): string {
  return pickField(event, "description", lang);
}

/** Choices of the places picker: 1 to the smaller of the booking limit and the places left. */
export function placeChoices(placesLeft: number, max: number): number[] {
  return Array.from({ length: Math.max(0, Math.min(max, placesLeft)) }, (_, i) => i + 1);
}
