import { PERMISSIONS } from "@parlons/contract";
import { z } from "zod";
import { ownerPolicy } from "../../plugins/access";

const userId = z.object({ id: z.uuid() });

/** A user edits their own profile; staff with users.manage edit anyone's (others: 403). */
export const profilePolicy = ownerPolicy({
  resource: "profile",
  description: "the user themself, or staff with `users.manage`",
  staff: PERMISSIONS.usersManage,
  reads: "params",
  denied: 403,
  input: (request) => userId.safeParse(request.params).data?.id,
  owns: (principal, id) => principal.id === id,
});
