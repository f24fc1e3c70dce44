import type { RegistrationItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { myUpcomingBookingsQuery } from "../../../lib/events-api";
import { useSession } from "../../../lib/session";

/** The signed-in user's live bookings, by event id (empty when signed out). */
export function useMyBookings(): Map<string, RegistrationItem> {
  const { status } = useSession();
  const { data } = useQuery({ ...myUpcomingBookingsQuery, enabled: status === "authenticated" });
  return useMemo(
    () => new Map(status === "authenticated" ? (data ?? []).map((r) => [r.event_id, r]) : []),
    [data, status],
  );
}
