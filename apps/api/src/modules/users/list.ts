import type { UserListItem, UserStatus } from "@parlons/contract";
import { type AnyColumn, and, asc, count, desc, eq, exists, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { containing, createPageStarts, pageOffset } from "../../db/paginate";
import { userRoles, users } from "../../db/schema/users";
import { createCountCache } from "../../lib/count-cache";
import { roleIdOfTitle, roleTitles } from "../roles/queries";

type UserRow = typeof users.$inferSelect;

/** The sort key of a row of the list: `created_at` as PostgreSQL writes it (to the microsecond), and the id. */
interface Start {
  at: string;
  id: string;
}

/**
 * The staff list of users, newest first. Read for 100,000 users and more (docs/performance.md):
 * the page's ids come from the `users_created_id_idx` order alone (an index-only scan), and only
 * those rows are read; filtered by a role alone, they come from `user_roles_role_created_idx` (the
 * same order, kept in `user_roles.user_created_at`); the role filter combined with others is a
 * semi-join on the user's roles; the search uses the trigram indexes; a role-only count counts
 * `user_roles`. A deep page read again starts from its first row's key (keyset) instead of
 * skipping the rows before it, and large totals are reused for a few seconds: both are dropped by
 * `changed()`, which the service calls on every write of users and roles. The role is named by
 * its title inside the query and the page's role titles come with its rows: one round trip for a
 * page that is not full, two for a full one whose total is not kept.
 */
export function createUserList(db: Db, present: (row: UserRow, roleTitles: string[]) => UserListItem) {
  /** Totals by filter; exact below 1,000 users, else up to 5 s old. */
  const totals = createCountCache({ ttlMs: 5_000, minRows: 1_000 });
  /** Where deep pages start (from offset 1,000), up to 5 s old as the totals. */
  const starts = createPageStarts<Start>({ ttlMs: 5_000, minOffset: 1_000 });

  /** Rows at or after `start` in the list's order (created_at desc, id asc). */
  const from = (start: Start, at: AnyColumn, id: AnyColumn): SQL =>
    // the first bound is the index's range; the second is checked on its first entries only
    sql`(${at} <= ${start.at}::timestamptz and (${at} < ${start.at}::timestamptz or ${id} >= ${start.id}::uuid))`;

  return {
    changed() {
      totals.clear();
      starts.clear();
    },

    async list(filter: {
      page: number;
      pageSize: number;
      search?: string;
      status?: UserStatus;
      role?: string;
    }) {
      const conditions: SQL[] = [];
      if (filter.search) {
        const match = containing(filter.search, [users.email, users.fullName]);
        if (match) conditions.push(match);
      }
      if (filter.status) conditions.push(eq(users.status, filter.status));
      // the role by its title inside the page's own query (no round trip to find its id first);
      // an unknown title matches nobody
      const roleId = filter.role ? sql`${userRoles.roleId} = (${roleIdOfTitle(db, filter.role)})` : undefined;
      if (roleId) {
        conditions.push(
          exists(
            db
              .select({ one: sql`1` })
              .from(userRoles)
              .where(and(eq(userRoles.userId, users.id), roleId)),
          ),
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const order = [desc(users.createdAt), asc(users.id)];
      const roleOnly = roleId !== undefined && conditions.length === 1;
      const offset = pageOffset(filter);
      const key = JSON.stringify([
        filter.search ?? "",
        filter.status ?? "",
        filter.role?.toUpperCase() ?? "",
      ]);
      const start = starts.get(key, offset);
      // the page's first row known: seek to it (the index's range from there), else skip `offset`
      const skip = start ? 0 : offset;
      const pageIds =
        roleId && roleOnly
          ? db
              .select({ id: userRoles.userId })
              .from(userRoles)
              .where(and(roleId, start && from(start, userRoles.userCreatedAt, userRoles.userId)))
              .orderBy(desc(userRoles.userCreatedAt), asc(userRoles.userId))
              .limit(filter.pageSize)
              .offset(skip)
          : db
              .select({ id: users.id })
              .from(users)
              .where(and(where, start && from(start, users.createdAt, users.id)))
              .orderBy(...order)
              .limit(filter.pageSize)
              .offset(skip);
      // a user holds a role once (primary key), so counting the role's rows counts its users
      const total = () =>
        totals.get(key, async () => {
          const [row] =
            roleId && roleOnly
              ? await db.select({ n: count() }).from(userRoles).where(roleId)
              : await db.select({ n: count() }).from(users).where(where);
          return row?.n ?? 0;
        });
      // the page's users with their role titles, in one query
      const titles = roleTitles(db);
      const rows = await db
        .select({
          user: users,
          // the sort key as written (a Date keeps milliseconds only)
          at: sql<string>`"users"."created_at"::text`,
          // (qualified names: drizzle leaves a one-table query's columns unqualified)
          roles: sql<
            string[]
          >`coalesce((select array_agg("role_titles"."title"::text order by "user_roles"."position", "role_titles"."title") from "user_roles" inner join ${titles} on "role_titles"."id" = "user_roles"."role_id" where "user_roles"."user_id" = "users"."id"), '{}'::text[])`,
        })
        .from(users)
        .where(inArray(users.id, pageIds))
        .orderBy(...order);
      const first = rows[0];
      if (!start && first) starts.set(key, offset, { at: first.at, id: first.user.id });
      // a page that is not full is the last one: the total is known without counting (a search
      // that matches a few users is a third cheaper); a full or empty page counts
      const last = rows.length < filter.pageSize && (rows.length > 0 || filter.page === 1);
      const totalCount = last ? offset + rows.length : await total();
      return {
        users: rows.map((r) => present(r.user, r.roles)),
        pagination: { page: filter.page, pageSize: filter.pageSize, total: totalCount },
      };
    },
  };
}
