import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { roles } from "../../db/schema/roles";

/**
 * What the roles module publishes of its table for other modules' own queries: each role's id
 * and title, as a subquery to join (the user list and the mail audience filter by title inside
 * one paginated query). Every write to roles stays in the roles service.
 */
export function roleTitles(db: DbOrTx) {
  return db.select({ id: roles.id, title: roles.title }).from(roles).as("role_titles");
}

/** The id of the role with this title, as a subquery (no such role: no row, so nothing matches). */
export function roleIdOfTitle(db: DbOrTx, title: string) {
  return db.select({ id: roles.id }).from(roles).where(eq(roles.title, title.toUpperCase()));
}
