import { and, count, eq, gte, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { userRoles, users } from "../../db/schema/users";
import { roleIdOfTitle } from "../roles/queries";

export { createAudienceQuery } from "./audience";

/** How many users hold the role (the roles module refuses to delete a role in use). */
export async function countRoleHolders(tx: DbOrTx, roleId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(userRoles).where(eq(userRoles.roleId, roleId));
  return row?.n ?? 0;
}

/** How many accounts holding the role (by title) were created since `since` (the staff overview's sign-ups). */
export async function countNewHolders(tx: DbOrTx, roleTitle: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(userRoles)
    .where(and(inArray(userRoles.roleId, roleIdOfTitle(tx, roleTitle)), gte(userRoles.userCreatedAt, since)));
  return row?.n ?? 0;
}

/**
 * What the users module publishes of its table for other modules' own reports: a user's e-mail,
 * as a subquery to join (the staff's sales report names the learners who started a trial).
 */
export function userEmails(db: DbOrTx) {
  return db.select({ id: users.id, email: users.email }).from(users).as("user_emails");
}
