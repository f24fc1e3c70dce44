import type { RegistrationItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useSession } from "@/lib/session";
import { myLiveRegistrationsQuery } from "../api/events-api";

/** The signed-in user's live bookings and places on waiting lists, by event id (empty when signed out). */
export function useMyBookings(): Map<string, RegistrationItem> {
  const { status } = useSession();
  const { data } = useQuery({ ...myLiveRegistrationsQuery, enabled: status === "authenticated" });
  return useMemo(
    () => new Map(status === "authenticated" ? (data ?? []).map((r) => [r.event_id, r]) : []),
    [data, status],
  );
}
