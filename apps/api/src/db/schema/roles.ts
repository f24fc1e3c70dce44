import { boolean, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

export const roles = pgTable("roles", {
  id: id(),
  title: text("title").notNull().unique(),
  description: text("description"),
  builtIn: boolean("built_in").notNull().default(false),
  createdAt: createdAt(),
});

export const permissions = pgTable("permissions", {
  id: id(),
  slug: text("slug").notNull().unique(),
  description: text("description").notNull().default(""),
});

export const rolePermissions = pgTable(
  "role_permissions",
  {
    roleId: uuid("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    permissionId: uuid("permission_id")
      .notNull()
      .references(() => permissions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);
