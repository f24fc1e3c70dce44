import { count, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { userRoles } from "../../db/schema/users";

export { createAudienceQuery } from "./audience";

/** How many users hold the role (the roles module refuses to delete a role in use). */
export async function countRoleHolders(tx: DbOrTx, roleId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(userRoles).where(eq(userRoles.roleId, roleId));
  return row?.n ?? 0;
}
