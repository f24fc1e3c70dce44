import { PERMISSIONS } from "@parlons/contract";
import { z } from "zod";
import { ownerPolicy } from "../../plugins/access";
import type { Principal } from "../users/service";

export function isEventStaff(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.eventsManage));
}

/** Inactive events exist for staff only; everyone else gets a 404. */
export function canSeeEvent(principal: Principal | null, event: { active: boolean }): boolean {
  return event.active || isEventStaff(principal);
}

const byId = z.object({ id: z.uuid() });

/**
 * A registration is read or cancelled by the learner who booked it or by staff with
 * events.manage; to anyone else it does not exist (404).
 */
export const registrationPolicy = (learnerOf: (registrationId: string) => Promise<string | null>) =>
  ownerPolicy({
    resource: "registration",
    description: "the booking's learner, or staff with `events.manage`",
    staff: PERMISSIONS.eventsManage,
    reads: "params",
    input: (request) => byId.safeParse(request.params).data?.id,
    owns: async (principal, id) => (await learnerOf(id)) === principal.id,
  });
