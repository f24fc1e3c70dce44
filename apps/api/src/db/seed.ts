import { randomBytes } from "node:crypto";
import {
  ALL_PERMISSIONS,
  CUSTOMER_PERMISSIONS,
  PERMISSIONS,
  ROLE_ADMIN,
  ROLE_CUSTOMER,
} from "@parlons/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { hashPassword } from "../modules/auth/passwords";
import type { Db, DbOrTx } from "./client";
import { menuModules, permissions, plans, rolePermissions, roles, userRoles, users } from "./schema";

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
  [PERMISSIONS.learn]: "Follow courses and lessons",
  [PERMISSIONS.subscribe]: "Subscribe to plans",
  [PERMISSIONS.eventsBook]: "Book places at events",
};

interface ModuleSeed {
  title: string;
  titleFr: string;
  path: string;
  icon: string;
  permission: string | null;
  external?: boolean;
  children?: ModuleSeed[];
}

/** The menu tree (three levels at most); each entry is shown to users holding its permission. */
export const MENU: ModuleSeed[] = [
  { title: "Dashboard", titleFr: "Tableau de bord", path: "/dashboard", icon: "dashboard", permission: null },
  { title: "Courses", titleFr: "Cours", path: "/courses", icon: "book", permission: null },
  { title: "Events", titleFr: "Événements", path: "/events", icon: "calendar", permission: null },
  {
    title: "My subscription",
    titleFr: "Mon abonnement",
    path: "/billing",
    icon: "wallet",
    permission: PERMISSIONS.subscribe,
  },
  { title: "Pricing", titleFr: "Tarifs", path: "/pricing", icon: "tag", permission: PERMISSIONS.subscribe },
  {
    title: "Administration",
    titleFr: "Administration",
    path: "/admin",
    icon: "setting",
    permission: PERMISSIONS.dashboardAdmin,
    children: [
      {
        title: "New course",
        titleFr: "Nouveau cours",
        path: "/courses/create",
        icon: "plus",
        permission: PERMISSIONS.coursesManage,
      },
      {
        title: "Plans",
        titleFr: "Formules",
        path: "/plans",
        icon: "tag",
        permission: PERMISSIONS.plansManage,
      },
      {
        title: "Users",
        titleFr: "Utilisateurs",
        path: "/User",
        icon: "team",
        permission: PERMISSIONS.usersRead,
        children: [
          {
            title: "All users",
            titleFr: "Tous les utilisateurs",
            path: "/User",
            icon: "team",
            permission: PERMISSIONS.usersRead,
          },
          {
            title: "Customers",
            titleFr: "Clients",
            path: "/User/customers",
            icon: "user",
            permission: PERMISSIONS.usersRead,
          },
          {
            title: "Add a user",
            titleFr: "Ajouter un utilisateur",
            path: "/User/create",
            icon: "user-add",
            permission: PERMISSIONS.usersManage,
          },
          {
            title: "Roles",
            titleFr: "Rôles",
            path: "/User/roles",
            icon: "safety",
            permission: PERMISSIONS.rolesManage,
          },
        ],
      },
      {
        title: "Mail",
        titleFr: "Courriels",
        path: "/mail",
        icon: "mail",
        permission: PERMISSIONS.mailManage,
        children: [
          {
            title: "Templates",
            titleFr: "Modèles",
            path: "/mail/templates",
            icon: "file-text",
            permission: PERMISSIONS.mailManage,
          },
          {
            title: "Send mail",
            titleFr: "Envoyer",
            path: "/mail/send",
            icon: "send",
            permission: PERMISSIONS.mailManage,
          },
        ],
      },
      {
        title: "Settings",
        titleFr: "Paramètres",
        path: "/setting",
        icon: "control",
        permission: PERMISSIONS.settingsManage,
      },
      {
        title: "Manage events",
        titleFr: "Gérer les événements",
        path: "/events/manage",
        icon: "calendar",
        permission: PERMISSIONS.eventsManage,
      },
      {
        title: "Configuration",
        titleFr: "Configuration",
        path: "/configs",
        icon: "control",
        permission: PERMISSIONS.configsManage,
      },
      {
        title: "Audit log",
        titleFr: "Journal d'audit",
        path: "/audit",
        icon: "audit",
        permission: PERMISSIONS.auditRead,
      },
      {
        title: "API documentation",
        titleFr: "Documentation de l'API",
        path: "/api/docs",
        icon: "api",
        permission: PERMISSIONS.dashboardAdmin,
        external: true,
      },
    ],
  },
  { title: "Profile", titleFr: "Profil", path: "/profile", icon: "user", permission: null },
];

/**
 * Installs seeded before an entry joined MENU get it on their next start: each entry missing
 * under its parent (matched by path) is inserted; entries already there are left as they are.
 */
async function addMissingModules(tx: DbOrTx, items: ModuleSeed[], parentId: string | null): Promise<void> {
  const existing = await tx
    .select({ id: menuModules.id, path: menuModules.path })
    .from(menuModules)
    .where(parentId ? eq(menuModules.parentId, parentId) : isNull(menuModules.parentId));
  for (const [position, item] of items.entries()) {
    let id = existing.find((row) => row.path === item.path)?.id;
    if (!id) {
      const [row] = await tx
        .insert(menuModules)
        .values({
          parentId,
          title: item.title,
          titleFr: item.titleFr,
          path: item.path,
          icon: item.icon,
          external: item.external ?? false,
          position,
          permission: item.permission,
        })
        .returning({ id: menuModules.id });
      id = row?.id;
    }
    if (id && item.children) await addMissingModules(tx, item.children, id);
  }
}

export const DEFAULT_PLAN = { name: "Discovery", nameFr: "Découverte" };

export interface SeedResult {
  adminCreated: boolean;
  adminEmail: string;
  /** Set only when a password was generated: shown once on first start. */
  generatedPassword?: string;
}

/** Idempotent base data: permissions, roles, menu, the default free plan, the first admin. */
export async function seedBase(db: Db, admin: { email: string; password?: string }): Promise<SeedResult> {
  return db.transaction(async (tx) => {
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
          const [row] = await tx
            .insert(menuModules)
            .values({
              parentId,
              title: item.title,
              titleFr: item.titleFr,
              path: item.path,
              icon: item.icon,
              external: item.external ?? false,
              position,
              permission: item.permission,
            })
            .returning({ id: menuModules.id });
          if (row && item.children) await insertTree(item.children, row.id);
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
          featuresEn: ["Free lessons of every course", "The learner's audio player", "Progress tracking"],
          featuresFr: [
            "Les leçons gratuites de chaque cours",
            "Le lecteur audio de l'apprenant",
            "Suivi de progression",
          ],
        })
        .returning();
    }

    const email = admin.email.toLowerCase();
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (existing) {
      const [hasRole] = await tx
        .select()
        .from(userRoles)
        .where(and(eq(userRoles.userId, existing.id), eq(userRoles.roleId, adminRole.id)));
      if (!hasRole)
        await tx.insert(userRoles).values({ userId: existing.id, roleId: adminRole.id, position: 0 });
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
        planId: defaultPlan?.id,
      })
      .returning({ id: users.id });
    if (!created) throw new Error("admin insert failed");
    await tx.insert(userRoles).values({ userId: created.id, roleId: adminRole.id, position: 0 });
    return { adminCreated: true, adminEmail: email, generatedPassword: generated ? password : undefined };
  });
}
