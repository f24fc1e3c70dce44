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

export const users = pgTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    fullName: text("full_name").notNull().default(""),
    gender: text("gender", { enum: ["m", "f", "other"] }),
    speak: text("speak", { enum: ["FR", "EN"] })
      .notNull()
      .default("FR"),
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
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index("user_roles_role_idx").on(t.roleId)],
);

export const menuModules = pgTable("menu_modules", {
  id: id(),
  parentId: uuid("parent_id"),
  title: text("title").notNull(),
  titleFr: text("title_fr").notNull(),
  path: text("path").notNull(),
  icon: text("icon"),
  external: boolean("external").notNull().default(false),
  position: integer("position").notNull().default(0),
  /** Null: visible to every signed-in user. */
  permission: text("permission"),
});

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** One row per refresh token issued; a used token presented again revokes its session. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: id(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash),
    index("refresh_tokens_session_idx").on(t.sessionId),
  ],
);

export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A TypeScript-only enum (a plain text column): a new kind needs no migration. */
    kind: text("kind", { enum: ["activation", "password_reset", "social_login"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("one_time_tokens_hash_key").on(t.tokenHash),
    index("one_time_tokens_user_idx").on(t.userId),
  ],
);

export const oauthAccounts = pgTable(
  "oauth_accounts",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("oauth_accounts_provider_key").on(t.provider, t.providerUserId)],
);
