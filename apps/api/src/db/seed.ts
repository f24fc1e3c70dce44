import { randomBytes } from "node:crypto";
import {
  ALL_PERMISSIONS,
  CUSTOMER_PERMISSIONS,
  PERMISSIONS,
  ROLE_ADMIN,
  ROLE_CUSTOMER,
} from "@parlons/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { hashPassword } from "../lib/passwords";
import type { Db, DbOrTx } from "./client";
import { plans } from "./schema/plans";
import { permissions, rolePermissions, roles } from "./schema/roles";
import { menuModules, userCreatedAtOf, userRoles, users } from "./schema/users";
import { MENU, type ModuleSeed } from "./seed-menu";

const permissionDescriptions: Record<string, string> = {
  [PERMISSIONS.dashboardAdmin]: "See the staff dashboard",
  [PERMISSIONS.usersRead]: "List and read users",
  [PERMISSIONS.usersManage]: "Create, update, approve and disable users",
  [PERMISSIONS.rolesManage]: "Create and delete roles",
  [PERMISSIONS.coursesManage]: "Create, edit and delete courses",
  [PERMISSIONS.lessonsManage]: "Create, edit and delete lessons",
  [PERMISSIONS.mediaUpload]: "Upload media files",
  [PERMISSIONS.plansManage]: "Manage subscription plans",
  [PERMISSIONS.customerPlansManage]: "Manage learners' subscriptions",
  [PERMISSIONS.mailManage]: "Manage mail templates and send mail",
  [PERMISSIONS.settingsManage]: "Change the settings",
  [PERMISSIONS.eventsManage]: "Manage events and registrations",
  [PERMISSIONS.configsManage]: "Manage configuration values",
  [PERMISSIONS.auditRead]: "Read the audit log",
  [PERMISSIONS.privacyManage]: "See and process learners' data export and erasure requests",
  [PERMISSIONS.certificatesManage]: "List and revoke certificates of completion",
  [PERMISSIONS.analyticsRead]: "See the learning and business analytics",
  [PERMISSIONS.learn]: "Follow courses and lessons",
  [PERMISSIONS.subscribe]: "Subscribe to plans",
  [PERMISSIONS.eventsBook]: "Book places at events",
};

/** Inserts one menu entry (not its children) at `position` under `parentId`; returns its id. */
async function insertModule(
  tx: DbOrTx,
  item: ModuleSeed,
  parentId: string | null,
  position: number,
): Promise<string | undefined> {
  const [row] = await tx
    .insert(menuModules)
    .values({
      parentId,
      title: item.title,
      titleFr: item.titleFr,
      titleEs: item.titleEs,
      path: item.path,
      icon: item.icon,
      external: item.external ?? false,
      position,
      permission: item.permission,
    })
    .returning({ id: menuModules.id });
  return row?.id;
}

/**
 * Installs seeded before an entry joined MENU get it on their next start: each entry missing
 * under its parent (matched by path) is inserted; entries already there are left as they are,
 * but for a Spanish title they lack (seeded before menus had one).
 */
async function addMissingModules(tx: DbOrTx, items: ModuleSeed[], parentId: string | null): Promise<void> {
  const existing = await tx
    .select({ id: menuModules.id, path: menuModules.path, titleEs: menuModules.titleEs })
    .from(menuModules)
    .where(parentId ? eq(menuModules.parentId, parentId) : isNull(menuModules.parentId));
  for (const [position, item] of items.entries()) {
    const row = existing.find((r) => r.path === item.path);
    let id = row?.id;
    if (!id) id = await insertModule(tx, item, parentId, position);
    else if (!row?.titleEs) {
      await tx.update(menuModules).set({ titleEs: item.titleEs }).where(eq(menuModules.id, id));
    }
    if (id && item.children) await addMissingModules(tx, item.children, id);
  }
}

const DEFAULT_PLAN = { name: "Discovery", nameFr: "Découverte" };

export interface SeedResult {
  adminCreated: boolean;
  adminEmail: string;
  /** Set only when a password was generated: shown once on first start. */
  generatedPassword?: string;
}

/**
 * What every installation starts with whatever its configuration: the permissions, the built-in
 * roles and their grants, the menu and the default free plan. Idempotent. `npm run build` runs it
 * into the PGlite template too (db/make-template.ts), so that a first start finds it done.
 */
export async function seedStructure(tx: DbOrTx): Promise<{ adminRoleId: string; defaultPlanId?: string }> {
  await tx
    .insert(permissions)
    .values(ALL_PERMISSIONS.map((slug) => ({ slug, description: permissionDescriptions[slug] ?? slug })))
    .onConflictDoNothing();
  await tx
    .insert(roles)
    .values([
      { title: ROLE_ADMIN, description: "Staff: manages everything", builtIn: true },
      { title: ROLE_CUSTOMER, description: "Learner", builtIn: true },
    ])
    .onConflictDoNothing();
  const roleRows = await tx
    .select()
    .from(roles)
    .where(inArray(roles.title, [ROLE_ADMIN, ROLE_CUSTOMER]));
  const permRows = await tx.select().from(permissions);
  const adminRole = roleRows.find((r) => r.title === ROLE_ADMIN);
  const customerRole = roleRows.find((r) => r.title === ROLE_CUSTOMER);
  if (!adminRole || !customerRole) throw new Error("built-in roles missing after seed");
  const grants = [
    ...permRows.map((p) => ({ roleId: adminRole.id, permissionId: p.id })),
    ...permRows
      .filter((p) => (CUSTOMER_PERMISSIONS as string[]).includes(p.slug))
      .map((p) => ({ roleId: customerRole.id, permissionId: p.id })),
  ];
  await tx.insert(rolePermissions).values(grants).onConflictDoNothing();

  const [{ count: moduleCount } = { count: 0 }] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(menuModules);
  if (moduleCount === 0) {
    const insertTree = async (items: ModuleSeed[], parentId: string | null) => {
      for (const [position, item] of items.entries()) {
        const id = await insertModule(tx, item, parentId, position);
        if (id && item.children) await insertTree(item.children, id);
      }
    };
    await insertTree(MENU, null);
  }
  await addMissingModules(tx, MENU, null);

  let [defaultPlan] = await tx.select().from(plans).where(eq(plans.isDefault, true));
  if (!defaultPlan) {
    [defaultPlan] = await tx
      .insert(plans)
      .values({
        name: DEFAULT_PLAN.name,
        nameFr: DEFAULT_PLAN.nameFr,
        descriptionEn: "Free lessons of every course, at your own pace.",
        descriptionFr: "Les leçons gratuites de chaque cours, à votre rythme.",
        amount: 0,
        interval: "month",
        isDefault: true,
        featuresEn: ["Progress tracking"],
        featuresFr: ["Suivi de progression"],
        translations: {
          es: {
            name: "Descubrimiento",
            description: "Las lecciones gratuitas de cada curso, a tu ritmo.",
            features: ["Seguimiento del progreso"],
          },
        },
      })
      .returning();
  }
  return { adminRoleId: adminRole.id, defaultPlanId: defaultPlan?.id };
}

/** Idempotent base data: seedStructure, then the first admin. */
export async function seedBase(db: Db, admin: { email: string; password?: string }): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    const { adminRoleId, defaultPlanId } = await seedStructure(tx);
    const email = admin.email.toLowerCase();
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (existing) {
      const [hasRole] = await tx
        .select()
        .from(userRoles)
        .where(and(eq(userRoles.userId, existing.id), eq(userRoles.roleId, adminRoleId)));
      if (!hasRole)
        await tx.insert(userRoles).values({
          userId: existing.id,
          roleId: adminRoleId,
          position: 0,
          userCreatedAt: userCreatedAtOf(existing.id),
        });
      return { adminCreated: false, adminEmail: email };
    }
    const generated = admin.password ? undefined : randomBytes(12).toString("base64url");
    const password = admin.password ?? `${generated}!`;
    const [created] = await tx
      .insert(users)
      .values({
        email,
        passwordHash: await hashPassword(password),
        fullName: "Admin",
        status: "ACTIVE",
        activatedAt: new Date(),
        planId: defaultPlanId,
      })
      .returning({ id: users.id });
    if (!created) throw new Error("admin insert failed");
    await tx.insert(userRoles).values({
      userId: created.id,
      roleId: adminRoleId,
      position: 0,
      userCreatedAt: userCreatedAtOf(created.id),
    });
    return { adminCreated: true, adminEmail: email, generatedPassword: generated ? password : undefined };
  });
}
