import type {
  EventBody,
  EventDeleteResponse,
  EventItem,
  EventListResponse,
  EventRegistrationsResponse,
  EventResponse,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { eventKeys } from "./event-queries";

/** `GET /v1/events` as staff: inactive events too, and past ones on request. */
export function staffEventsQuery(query: { page: number; pageSize: number; include?: "past" }) {
  return queryOptions({
    queryKey: [...eventKeys.list(query), "staff"] as const,
    queryFn: ({ signal }) =>
      api<EventListResponse>("/v1/events", { query: { ...query }, signal }).then((r) => r.data),
    placeholderData: (previous) => previous,
  });
}

/** `GET /v1/events/{id}/registrations` (staff). */
export function eventRegistrationsQuery(id: string) {
  return queryOptions({
    queryKey: eventKeys.registrations(id),
    queryFn: ({ signal }) =>
      api<EventRegistrationsResponse>(`/v1/events/${encodeURIComponent(id)}/registrations`, {
        query: { pageSize: 100 },
        signal,
      }).then((r) => r.data),
  });
}

/** Create (`POST /v1/events`) or update (`PUT /v1/events/{id}`); errors are shown by the form. */
export function useSaveEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: EventBody }) =>
      api<EventResponse>(id ? `/v1/events/${encodeURIComponent(id)}` : "/v1/events", {
        method: id ? "PUT" : "POST",
        body,
        silent: true,
      }).then((r): EventItem => r.data.event),
    onSuccess: () => client.invalidateQueries({ queryKey: eventKeys.all }),
  });
}

/** `DELETE /v1/events/{id}`: 409 while places are booked, unless `force` (cancels them). */
export function useDeleteEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, force }: { id: string; force: boolean }) =>
      api<EventDeleteResponse>(`/v1/events/${encodeURIComponent(id)}`, {
        method: "DELETE",
        query: force ? { force: "true" } : undefined,
        silent: true,
      }).then((r) => r.data),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: eventKeys.all }),
        client.invalidateQueries({ queryKey: eventKeys.allMine }),
      ]),
  });
}
