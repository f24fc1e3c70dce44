/** Permission slugs. Every staff route names the one it needs. */
export const PERMISSIONS = {
  dashboardAdmin: "dashboard.admin",
  usersRead: "users.read",
  usersManage: "users.manage",
  rolesManage: "roles.manage",
  coursesManage: "courses.manage",
  lessonsManage: "lessons.manage",
  mediaUpload: "media.upload",
  plansManage: "plans.manage",
  customerPlansManage: "customer-plans.manage",
  mailManage: "mail.manage",
  settingsManage: "settings.manage",
  eventsManage: "events.manage",
  configsManage: "configs.manage",
  auditRead: "audit.read",
  privacyManage: "privacy.manage",
  certificatesManage: "certificates.manage",
  analyticsRead: "analytics.read",
  // learner abilities
  learn: "learn",
  subscribe: "plans.subscribe",
  eventsBook: "events.book",
} as const;

export type PermissionSlug = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

export const ALL_PERMISSIONS: PermissionSlug[] = Object.values(PERMISSIONS);

export const CUSTOMER_PERMISSIONS: PermissionSlug[] = [
  PERMISSIONS.learn,
  PERMISSIONS.subscribe,
  PERMISSIONS.eventsBook,
];

export const ROLE_ADMIN = "ADMIN";
export const ROLE_CUSTOMER = "CUSTOMER";
export const BUILT_IN_ROLES = [ROLE_ADMIN, ROLE_CUSTOMER] as const;
