import { PERMISSIONS } from "@parlons/contract";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { type OwnerPolicy, ownerPolicy } from "../../plugins/access";

const byId = z.object({ id: z.uuid() });

/** A certificate is read by the learner it was issued to, or by staff with certificates.manage; to anyone else it does not exist (404). */
export const certificatePolicy = (ownerOf: (id: string) => Promise<string | null>): OwnerPolicy =>
  ownerPolicy({
    resource: "certificate",
    description: "the learner it was issued to, or staff with `certificates.manage`",
    staff: PERMISSIONS.certificatesManage,
    reads: "params",
    input: (request: FastifyRequest) => byId.safeParse(request.params).data?.id,
    owns: async (principal, id) => (await ownerOf(id)) === principal.id,
  });
