import { SPEAK_CODES } from "@parlons/contract";
import { type SQL, sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { plans } from "./plans";
import { roles } from "./roles";

export const users = pgTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    fullName: text("full_name").notNull().default(""),
    gender: text("gender", { enum: ["m", "f", "other"] }),
    speak: text("speak", { enum: SPEAK_CODES }).notNull().default("FR"),
    status: text("status", { enum: ["PENDING", "ACTIVE", "DISABLED"] })
      .notNull()
      .default("PENDING"),
    planId: uuid("plan_id").references(() => plans.id),
    courseId: text("course_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    // the staff list's order (newest first, id as tie-break): pages are read from it, counts too
    index("users_created_id_idx").on(t.createdAt.desc().nullsFirst(), t.id),
    // the staff search: `ilike '%term%'` on email or name
    index("users_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
    index("users_full_name_trgm_idx").using("gin", t.fullName.op("gin_trgm_ops")),
  ],
);

/** Ordered: the role with the lowest position is "the" role of the user (spec §3). */
export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: uuid("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "restrict" }),
    position: integer("position").notNull().default(0),
    /** The user's `created_at` (it never changes), so a role's users are listed from this table alone. */
    userCreatedAt: timestamp("user_created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.roleId] }),
    index("user_roles_role_idx").on(t.roleId),
    // the staff list filtered by a role alone: its order (newest first, id as tie-break), index-only
    index("user_roles_role_created_idx").on(t.roleId, t.userCreatedAt.desc().nullsFirst(), t.userId),
  ],
);

/** The value of `user_roles.user_created_at` for a new row: read from `users`, to the microsecond. */
export function userCreatedAtOf(userId: string): SQL<Date> {
  return sql<Date>`(select ${users.createdAt} from ${users} where ${users.id} = ${userId})`;
}

export const menuModules = pgTable("menu_modules", {
  id: id(),
  parentId: uuid("parent_id"),
  title: text("title").notNull(),
  titleFr: text("title_fr").notNull(),
  /** "" when none: Spanish readers then get the English title. */
  titleEs: text("title_es").notNull().default(""),
  path: text("path").notNull(),
  icon: text("icon"),
  external: boolean("external").notNull().default(false),
  position: integer("position").notNull().default(0),
  /** Null: visible to every signed-in user. */
  permission: text("permission"),
});
