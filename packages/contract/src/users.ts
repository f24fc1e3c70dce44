import { z } from "zod";
import { speak } from "./auth";
import { envelope, pagination } from "./common";

export const gender = z.enum(["m", "f", "other"]);
export const userStatus = z.enum(["PENDING", "ACTIVE", "DISABLED"]);
export type UserStatus = z.infer<typeof userStatus>;

export const permissionItem = z.object({ slug: z.string() });
export const roleItem = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  builtIn: z.boolean(),
  permissions: z.array(permissionItem),
});
export type Role = z.infer<typeof roleItem>;

export interface MenuModule {
  title: string;
  title_fr: string;
  /** "" when the entry has no Spanish title (the English one is shown). */
  title_es: string;
  path: string;
  icon: string | null;
  external: boolean;
  subModules: MenuModule[];
}
export const menuModule: z.ZodType<MenuModule> = z
  .lazy(
    () =>
      z.object({
        title: z.string(),
        title_fr: z.string(),
        title_es: z.string(),
        path: z.string(),
        icon: z.string().nullable(),
        external: z.boolean(),
        subModules: z.array(menuModule),
      }),
    // recursive: a named component of the OpenAPI document that refers to itself
  )
  .meta({ id: "MenuModule" });

export const planSummary = z.object({
  id: z.string(),
  name: z.string(),
  name_fr: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  is_default: z.boolean(),
});
export type PlanSummary = z.infer<typeof planSummary>;

/** Who a user is, as the API answers it to the user and to staff: name, address, language, status, role. */
const userIdentity = {
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  gender: gender.nullable(),
  speak,
  status: userStatus,
  role: z.string(),
};

export const currentUser = z.object({
  ...userIdentity,
  roles: z.array(roleItem),
  permissions: z.array(z.string()),
  plan_id: z.string().nullable(),
  plan: planSummary.nullable(),
  modules: z.array(menuModule),
  created_at: z.string(),
});
export type CurrentUser = z.infer<typeof currentUser>;

/** `GET /v1/user/me`: the user object sits in `data.data` (spec §7). */
export const userMeResponse = envelope(z.object({ data: currentUser }));

export const profileBody = z
  .object({
    full_name: z.string().trim().min(1).max(120).optional(),
    gender: gender.nullable().optional(),
    speak: speak.optional(),
  })
  .strict()
  .meta({ examples: [{ full_name: "Camille Martin", gender: null, speak: "EN" }] });

/** A user as staff see it in lists. */
export const userListItem = z.object({
  ...userIdentity,
  plan_id: z.string().nullable(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type UserListItem = z.infer<typeof userListItem>;

export const userListBody = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(120).optional(),
  status: userStatus.optional(),
  role: z.string().max(40).optional(),
});

export const userListResponse = envelope(z.object({ users: z.array(userListItem), pagination }));
export const userResponse = envelope(z.object({ user: userListItem }));

export const addUserBody = z.object({
  email: z.string().trim().max(254),
  password: z.string().max(256),
  full_name: z.string().trim().max(120).optional(),
  role: z.string().max(40).default("CUSTOMER"),
  speak: speak.default("FR"),
});

export const updateUserBody = z
  .object({
    full_name: z.string().trim().min(1).max(120).optional(),
    gender: gender.nullable().optional(),
    speak: speak.optional(),
    role: z.string().max(40).optional(),
    status: userStatus.optional(),
    plan_id: z.uuid().optional(),
  })
  .strict();

export const userIdQuery = z.object({ userId: z.uuid() });
export const statusUpdateQuery = z.object({ userId: z.uuid(), status: userStatus });

export const roleListResponse = envelope(z.object({ roles: z.array(roleItem) }));
export const roleCreateBody = z.object({
  title: z
    .string()
    .trim()
    .min(2)
    .max(40)
    .regex(/^[A-Za-z0-9_-]+$/, "Use letters, digits, - or _"),
  description: z.string().trim().max(200).optional(),
  permissions: z.array(z.string().max(60)).max(100).default([]),
});
export const roleResponse = envelope(z.object({ role: roleItem }));
export const permissionListResponse = envelope(
  z.object({ permissions: z.array(z.object({ slug: z.string(), description: z.string() })) }),
);
