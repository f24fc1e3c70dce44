import {
  type CurrentUser,
  type Grantor,
  type MenuModule,
  normalizeEmail,
  ROLE_CUSTOMER,
  type Speak,
  type UserListItem,
  type UserStatus,
} from "@parlons/contract";
import { asc, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { menuModules, userCreatedAtOf, userRoles, users } from "../../db/schema/users";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import type { Principal } from "../../lib/principal";
import { defaultPlanId as findDefaultPlanId, planFacts } from "../plans/queries";
import { assertWithinCeiling } from "../roles/policy";
import { roleTitles } from "../roles/queries";
import type { RoleService } from "../roles/service";
import { createUserList } from "./list";

export type UserRow = typeof users.$inferSelect;

export type { Principal };

type MenuRow = typeof menuModules.$inferSelect;

/** Builds the menu tree (three levels at most) that the given permissions may see. */
function buildMenu(rows: MenuRow[], granted: Set<string>): MenuModule[] {
  const visible = (row: MenuRow) => row.permission === null || granted.has(row.permission);
  const children = (parentId: string | null, depth: number): MenuModule[] =>
    rows
      .filter((r) => r.parentId === parentId && visible(r))
      .sort((a, b) => a.position - b.position)
      .flatMap((r) => {
        const sub = depth < 3 ? children(r.id, depth + 1) : [];
        const hadChildren = rows.some((c) => c.parentId === r.id);
        if (hadChildren && sub.length === 0) return [];
        return [
          {
            title: r.title,
            title_fr: r.titleFr,
            title_es: r.titleEs,
            path: r.path,
            icon: r.icon,
            external: r.external,
            subModules: sub,
          },
        ];
      });
  return children(null, 1);
}

export function createUserService(db: Db, roleService: RoleService) {
  async function rolesOf(userIds: string[], tx: DbOrTx = db) {
    if (userIds.length === 0) return new Map<string, string[]>();
    const roles = roleTitles(tx);
    const rows = await tx
      .select({ userId: userRoles.userId, title: roles.title })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, userIds))
      .orderBy(asc(userRoles.position), asc(roles.title));
    const map = new Map<string, string[]>();
    for (const r of rows) map.set(r.userId, [...(map.get(r.userId) ?? []), r.title]);
    return map;
  }

  function present(row: UserRow, roleTitles: string[]): UserListItem {
    return {
      id: row.id,
      full_name: row.fullName,
      email: row.email,
      gender: row.gender,
      speak: row.speak,
      status: row.status,
      role: roleTitles[0] ?? ROLE_CUSTOMER,
      plan_id: row.planId,
      created_at: row.createdAt.toISOString(),
      last_login_at: row.lastLoginAt?.toISOString() ?? null,
    };
  }

  async function defaultPlanId(tx: DbOrTx = db): Promise<string | null> {
    return findDefaultPlanId(tx);
  }

  /** The staff list; told of every write of users and roles made here. */
  const listing = createUserList(db, present);

  return {
    defaultPlanId,

    async findByEmail(email: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(users)
        .where(eq(users.email, normalizeEmail(email)));
      return row;
    },

    async findById(id: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(users).where(eq(users.id, id));
      return row;
    },

    async emailExists(email: string): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, normalizeEmail(email)));
      return Boolean(row);
    },

    /** What the auth layer needs on every request: status, roles and permission slugs. */
    async loadPrincipal(userId: string): Promise<Principal | null> {
      const [user] = await db
        .select({ id: users.id, email: users.email, status: users.status })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) return null;
      const titles = (await rolesOf([userId])).get(userId) ?? [];
      const roleList = titles.length ? await roleService.listRoles({ titles }) : [];
      const permissions = new Set(roleList.flatMap((r) => r.permissions.map((p) => p.slug)));
      return { ...user, role: titles[0] ?? ROLE_CUSTOMER, roles: titles, permissions };
    },

    /**
     * The grant ceiling on an account: the grantor may act on it (edit, approve, enable, disable,
     * change its role) only if it holds nothing they lack, and only an ADMIN acts on an ADMIN
     * (else 403 ABOVE_YOUR_PERMISSIONS). An unknown account: 404.
     */
    async assertMayActOn(grantor: Grantor, userId: string, tx: DbOrTx = db): Promise<void> {
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!row) throw notFound("User");
      const titles = (await rolesOf([userId], tx)).get(userId) ?? [];
      const held = titles.length ? await roleService.listRoles({ titles }, tx) : [];
      const permissions = held.flatMap((r) => r.permissions.map((p) => p.slug));
      assertWithinCeiling(grantor, { roles: titles, permissions }, "account");
    },

    /** The grant ceiling on a role given to an account (an unknown role: 422). */
    async assertMayGrantRole(grantor: Grantor, title: string, tx: DbOrTx = db): Promise<void> {
      const [role] = await roleService.listRoles({ titles: [title.toUpperCase()] }, tx);
      if (!role) throw validationFailed({ role: [`Unknown role: ${title}`] });
      assertWithinCeiling(
        grantor,
        { roles: [role.title], permissions: role.permissions.map((p) => p.slug) },
        "grant",
      );
    },

    /** `GET /v1/user/me`: the user with roles, permissions, plan and menu. */
    async getCurrentUser(userId: string): Promise<CurrentUser> {
      // the user, their roles and the menu do not depend on each other: one round trip, not three
      const plans = planFacts(db);
      const [[row], roleMap, menuRows] = await Promise.all([
        db
          .select({
            user: users,
            plan: {
              id: plans.id,
              name: plans.name,
              nameFr: plans.nameFr,
              amount: plans.amount,
              currency: plans.currency,
              isDefault: plans.isDefault,
            },
          })
          .from(users)
          .leftJoin(plans, eq(plans.id, users.planId))
          .where(eq(users.id, userId)),
        rolesOf([userId]),
        db.select().from(menuModules),
      ]);
      if (!row) throw notFound("User");
      const titles = roleMap.get(userId) ?? [];
      const roleList = titles.length ? await roleService.listRoles({ titles }) : [];
      // keep the user's order of roles: the first is "the" role
      roleList.sort((a, b) => titles.indexOf(a.title) - titles.indexOf(b.title));
      const granted = new Set(roleList.flatMap((r) => r.permissions.map((p) => p.slug)));
      const { user, plan } = row;
      return {
        id: user.id,
        full_name: user.fullName,
        email: user.email,
        gender: user.gender,
        speak: user.speak,
        status: user.status,
        role: titles[0] ?? ROLE_CUSTOMER,
        roles: roleList,
        permissions: [...granted].sort(),
        plan_id: user.planId,
        plan: plan
          ? {
              id: plan.id,
              name: plan.name,
              name_fr: plan.nameFr,
              amount: plan.amount,
              currency: plan.currency,
              is_default: plan.isDefault,
            }
          : null,
        modules: buildMenu(menuRows, granted),
        created_at: user.createdAt.toISOString(),
      };
    },

    async createUser(
      input: {
        email: string;
        passwordHash: string | null;
        fullName?: string;
        speak?: Speak;
        status: UserStatus;
        role?: string;
        courseId?: string | null;
      },
      tx: DbOrTx = db,
    ): Promise<UserRow> {
      const email = normalizeEmail(input.email);
      const role = await roleService.getByTitle(input.role ?? ROLE_CUSTOMER, tx);
      if (!role) throw validationFailed({ role: [`Unknown role: ${input.role}`] });
      const [row] = await tx
        .insert(users)
        .values({
          email,
          passwordHash: input.passwordHash,
          fullName: input.fullName?.trim() || email.split("@")[0] || "",
          speak: input.speak ?? "FR",
          status: input.status,
          activatedAt: input.status === "ACTIVE" ? new Date() : null,
          planId: await defaultPlanId(tx),
          courseId: input.courseId ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw conflict("An account with this email already exists", "EMAIL_TAKEN");
      await tx
        .insert(userRoles)
        .values({ userId: row.id, roleId: role.id, position: 0, userCreatedAt: userCreatedAtOf(row.id) });
      listing.changed();
      return row;
    },

    async update(
      id: string,
      patch: Partial<
        Pick<
          UserRow,
          | "fullName"
          | "gender"
          | "speak"
          | "status"
          | "planId"
          | "passwordHash"
          | "lastLoginAt"
          | "activatedAt"
        >
      >,
      tx: DbOrTx = db,
    ): Promise<UserRow> {
      const [row] = await tx
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      if (!row) throw notFound("User");
      listing.changed();
      return row;
    },

    /** Replaces the user's roles by one role (the first and only). */
    async setRole(id: string, title: string, tx: DbOrTx = db): Promise<void> {
      const role = await roleService.getByTitle(title, tx);
      if (!role) throw validationFailed({ role: [`Unknown role: ${title}`] });
      await tx.delete(userRoles).where(eq(userRoles.userId, id));
      await tx
        .insert(userRoles)
        .values({ userId: id, roleId: role.id, position: 0, userCreatedAt: userCreatedAtOf(id) });
      listing.changed();
    },

    async present(row: UserRow, tx: DbOrTx = db): Promise<UserListItem> {
      return present(row, (await rolesOf([row.id], tx)).get(row.id) ?? []);
    },

    /** One page of users, newest first, with the count of the filter (list.ts). */
    list: listing.list,
  };
}
export type UserService = ReturnType<typeof createUserService>;
