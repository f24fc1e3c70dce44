import { BUILT_IN_ROLES, COLLECTION_LIMITS, type Grantor, type Role } from "@parlons/contract";
import { asc, count, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { permissions, rolePermissions, roles } from "../../db/schema/roles";
import { conflict, limitReached, notFound, validationFailed } from "../../lib/errors";
import { countRoleHolders } from "../users/queries";
import { assertWithinCeiling } from "./policy";

export function createRoleService(db: Db) {
  /** Roles with their permission slugs, in one query. */
  async function listRoles(where?: { ids?: string[]; titles?: string[] }, tx: DbOrTx = db): Promise<Role[]> {
    const rows = await tx
      .select({
        id: roles.id,
        title: roles.title,
        description: roles.description,
        builtIn: roles.builtIn,
        slug: permissions.slug,
      })
      .from(roles)
      .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
      .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
      .where(
        where?.ids
          ? inArray(roles.id, where.ids)
          : where?.titles
            ? inArray(roles.title, where.titles)
            : undefined,
      )
      .orderBy(asc(roles.title), asc(permissions.slug));
    const byId = new Map<string, Role>();
    for (const row of rows) {
      let role = byId.get(row.id);
      if (!role) {
        role = {
          id: row.id,
          title: row.title,
          description: row.description,
          builtIn: row.builtIn,
          permissions: [],
        };
        byId.set(row.id, role);
      }
      if (row.slug) role.permissions.push({ slug: row.slug });
    }
    return [...byId.values()];
  }

  async function getByTitle(title: string, tx: DbOrTx = db) {
    const [role] = await tx.select().from(roles).where(eq(roles.title, title.toUpperCase()));
    return role;
  }

  return {
    listRoles,
    getByTitle,

    async listPermissions() {
      return db
        .select({ slug: permissions.slug, description: permissions.description })
        .from(permissions)
        .orderBy(asc(permissions.slug));
    },

    /** A role of permissions all held by the grantor (else 403 ABOVE_YOUR_PERMISSIONS). */
    async createRole(
      input: { title: string; description?: string; permissions: string[] },
      grantor: Grantor,
    ): Promise<Role> {
      const title = input.title.toUpperCase();
      return db.transaction(async (tx) => {
        if (await getByTitle(title, tx)) throw conflict(`A role named ${title} already exists`);
        const [held] = await tx.select({ n: count() }).from(roles);
        if ((held?.n ?? 0) >= COLLECTION_LIMITS.roles)
          throw limitReached("The role list", COLLECTION_LIMITS.roles);
        const slugs = [...new Set(input.permissions)];
        const perms = slugs.length
          ? await tx.select().from(permissions).where(inArray(permissions.slug, slugs))
          : [];
        const unknown = slugs.filter((s) => !perms.some((p) => p.slug === s));
        if (unknown.length)
          throw validationFailed({ permissions: unknown.map((s) => `Unknown permission: ${s}`) });
        assertWithinCeiling(grantor, { roles: [title], permissions: slugs }, "grant");
        const [role] = await tx
          .insert(roles)
          .values({ title, description: input.description ?? null })
          .returning();
        if (!role) throw new Error("role insert failed");
        if (perms.length) {
          await tx
            .insert(rolePermissions)
            .values(perms.map((p) => ({ roleId: role.id, permissionId: p.id })));
        }
        const [created] = await listRoles({ ids: [role.id] }, tx);
        if (!created) throw new Error("role vanished");
        return created;
      });
    },

    /**
     * Built-in roles and roles held by users cannot be deleted (409); nor a role with a permission
     * the grantor lacks (403 ABOVE_YOUR_PERMISSIONS).
     */
    async deleteRole(id: string, grantor: Grantor): Promise<void> {
      await db.transaction(async (tx) => {
        const [role] = await tx.select().from(roles).where(eq(roles.id, id)).for("update");
        if (!role) throw notFound("Role");
        const [held] = await listRoles({ ids: [id] }, tx);
        assertWithinCeiling(
          grantor,
          { roles: [role.title], permissions: held?.permissions.map((p) => p.slug) ?? [] },
          "grant",
        );
        if (role.builtIn || (BUILT_IN_ROLES as readonly string[]).includes(role.title)) {
          throw conflict("Built-in roles cannot be deleted", "ROLE_BUILT_IN");
        }
        const count = await countRoleHolders(tx, id);
        if (count > 0) throw conflict(`This role is held by ${count} user(s)`, "ROLE_IN_USE");
        await tx.delete(roles).where(eq(roles.id, id));
      });
    },
  };
}
export type RoleService = ReturnType<typeof createRoleService>;
