import type { CurrentUser, Grantor, Role, Speak, UserListItem, UserStatus } from "@parlons/contract";
import { BUILT_IN_ROLES, ceilingRefusal, userStatus } from "@parlons/contract";
import type { TFunction } from "i18next";

export const USER_STATUSES = userStatus.options;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 20;

/** Filters of the users table, kept in the URL so that "back" and reloads keep them. */
export interface UserListFilters {
  page: number;
  pageSize: number;
  search: string;
  status: UserStatus | undefined;
  role: string | undefined;
}

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** Reads `?page=&pageSize=&q=&status=&role=`, ignoring anything the API would refuse. */
export function filtersFromParams(params: URLSearchParams): UserListFilters {
  const size = positiveInt(params.get("pageSize"), DEFAULT_PAGE_SIZE);
  const status = params.get("status");
  const role = params.get("role")?.trim().toUpperCase();
  return {
    page: positiveInt(params.get("page"), 1),
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    search: (params.get("q") ?? "").slice(0, 120),
    status: USER_STATUSES.find((s) => s === status),
    role: role && /^[A-Z0-9_-]{1,40}$/.test(role) ? role : undefined,
  };
}

/** The inverse of `filtersFromParams`; defaults are left out to keep URLs short. */
export function filtersToParams(filters: UserListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set("q", filters.search.trim());
  if (filters.status) params.set("status", filters.status);
  if (filters.role) params.set("role", filters.role);
  if (filters.page > 1) params.set("page", String(filters.page));
  if (filters.pageSize !== DEFAULT_PAGE_SIZE) params.set("pageSize", String(filters.pageSize));
  return params;
}

/** Body of `POST /v1/users` (and `/customers`): empty filters are not sent. */
export function listBody(filters: UserListFilters): {
  page: number;
  pageSize: number;
  search?: string;
  status?: UserStatus;
  role?: string;
} {
  const search = filters.search.trim();
  return {
    page: filters.page,
    pageSize: filters.pageSize,
    ...(search ? { search } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.role ? { role: filters.role } : {}),
  };
}

export function hasActiveFilters(filters: UserListFilters): boolean {
  return Boolean(filters.search.trim() || filters.status || filters.role);
}

export function statusColor(status: UserStatus): string {
  if (status === "ACTIVE") return "green";
  if (status === "PENDING") return "gold";
  return "red";
}

export type UserAction = "approve" | "disable" | "enable" | "edit";

/**
 * Row actions a staff member may use on a user: approve a pending account, disable or enable,
 * edit. Nobody disables their own account, nor changes the status of an account above their
 * grant ceiling (the API refuses both with 403): that one keeps only "edit", which explains why.
 */
export function userActions(
  user: Pick<UserListItem, "id" | "status">,
  selfId: string | undefined,
  withinCeiling = true,
): UserAction[] {
  const actions: UserAction[] = [];
  // an account holding rights the staff member lacks: the API refuses every change (403)
  if (!withinCeiling) return ["edit"];
  if (user.status === "PENDING") actions.push("approve");
  if (user.status === "DISABLED") actions.push("enable");
  else if (user.id !== selfId) actions.push("disable");
  actions.push("edit");
  return actions;
}

/** Role titles as the API stores them: upper case, letters, digits, `_` and `-`, 2 to 40 characters. */
export function normalizeRoleTitle(value: string): string {
  return value.trim().toUpperCase();
}

export function isValidRoleTitle(value: string): boolean {
  return /^[A-Z0-9_-]{2,40}$/.test(normalizeRoleTitle(value));
}

/**
 * A role's description in the reader's language: the built-in roles (seeded with an English text)
 * are described by the catalogue; staff's own roles keep the description staff wrote.
 */
export function roleDescription(t: TFunction, role: Pick<Role, "title" | "description" | "builtIn">): string {
  const typed = role.description ?? "";
  if (!role.builtIn) return typed;
  return t(`users:roles.builtInDescriptions.${role.title}`, { defaultValue: typed });
}

/** i18n key of a permission's description (`users.read` → `users_read`: i18next splits keys on dots). */
export function permissionKey(slug: string): string {
  return slug.replace(/[^A-Za-z0-9-]/g, "_");
}

export interface UserEditValues {
  full_name: string;
  gender: "m" | "f" | "other" | null;
  speak: Speak;
  role: string;
  status: UserStatus;
  plan_id: string | null;
}

export type UserUpdateBody = Partial<{
  full_name: string;
  gender: "m" | "f" | "other" | null;
  speak: Speak;
  role: string;
  status: UserStatus;
  plan_id: string;
}>;

/**
 * Body of `POST /v1/users/update/{id}`: only what changed. For one's own account the role and
 * status are never sent (the API answers 403), and the plan only when the editor may see plans.
 */
export function updateBody(
  before: UserEditValues,
  after: UserEditValues,
  options: { self: boolean; canEditPlan: boolean },
): UserUpdateBody {
  const body: UserUpdateBody = {};
  const name = after.full_name.trim();
  if (name && name !== before.full_name) body.full_name = name;
  if (after.gender !== before.gender) body.gender = after.gender;
  if (after.speak !== before.speak) body.speak = after.speak;
  if (!options.self) {
    if (after.role && after.role !== before.role) body.role = after.role;
    if (after.status !== before.status) body.status = after.status;
  }
  if (options.canEditPlan && after.plan_id && after.plan_id !== before.plan_id) body.plan_id = after.plan_id;
  return body;
}

/**
 * Role choices: the roles the API listed, or the built-in ones when the caller may not list roles,
 * less those `grantable` refuses (the grant ceiling); the current role always stays.
 */
export function roleChoices(
  listed: string[] | undefined,
  builtIn: readonly string[],
  current?: string,
  grantable: (title: string) => boolean = () => true,
): string[] {
  const titles = new Set((listed && listed.length > 0 ? listed : builtIn).filter(grantable));
  if (current) titles.add(current);
  return [...titles].sort((a, b) => a.localeCompare(b));
}

/**
 * A role as staff read it: a built-in role by its name in the reader's language (`CUSTOMER` is
 * "Apprenant"), a role staff created by the title they gave it.
 */
export function roleName(t: TFunction, title: string): string {
  return (BUILT_IN_ROLES as readonly string[]).includes(title) ? t(`users:roles.names.${title}`) : title;
}

/** `roleChoices` as the options of a role select, labelled by `roleName`. */
export function roleOptions(
  t: TFunction,
  listed: string[] | undefined,
  builtIn: readonly string[],
  current?: string,
  grantable?: (title: string) => boolean,
): { value: string; label: string }[] {
  return roleChoices(listed, builtIn, current, grantable).map((title) => ({
    value: title,
    label: roleName(t, title),
  }));
}

/** The signed-in staff member as the grant ceiling sees them: their roles and permissions. */
export function grantorOf(me: Pick<CurrentUser, "roles" | "permissions"> | null | undefined): Grantor {
  return {
    roles: me?.roles.map((r) => r.title) ?? [],
    permissions: new Set([
      ...(me?.permissions ?? []),
      ...(me?.roles[0]?.permissions.map((p) => p.slug) ?? []),
    ]),
  };
}

/** Whether the API would let this staff member give the permission (the grant ceiling). */
export function mayGrantPermission(grantor: Grantor, slug: string): boolean {
  return ceilingRefusal(grantor, { roles: [], permissions: [slug] }) === null;
}

/**
 * Whether the API would let this staff member give the role, or act on an account holding it
 * (the grant ceiling): a role known only by its title (the caller may not list roles) is judged
 * by its title alone, so only ADMIN is held back; the API stays the authority.
 */
export function withinCeiling(grantor: Grantor, title: string, roles: Role[] | undefined): boolean {
  const role = roles?.find((r) => r.title === title);
  return (
    ceilingRefusal(grantor, { roles: [title], permissions: role?.permissions.map((p) => p.slug) ?? [] }) ===
    null
  );
}
