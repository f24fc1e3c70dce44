import { PERMISSIONS } from "@parlons/contract";
import { createBrowserRouter, matchRoutes, type RouteObject, useParams } from "react-router";
import { pagePath, routes } from "@/lib/paths";
import { ComingSoon } from "../components/coming-soon";
import { FullPageSpinner } from "../components/full-page-spinner";
import { NotFoundPage } from "../components/not-found";
import { loadShellTexts } from "../lib/i18n";
import { DEFAULT_LANG, LANGS, type Lang, localizePath } from "../lib/locale-path";
import { GuestOnly, RequireAuth, RequirePermission } from "./guards";
import { PublicLayout } from "./layouts/public-layout";
import { SessionLayout } from "./layouts/session-layout";
import { LegacyRedirect, LocaleRoot, RootRedirect } from "./locale-root";
import { RouteError } from "./route-error";
import { ownProviders, page, plainPage, withAntdProviders } from "./route-helpers";

const auth = {
  login: () => import("../features/auth/pages/login-page"),
  forgot: () => import("../features/auth/pages/forgot-password-page"),
  reset: () => import("../features/auth/pages/reset-password-page"),
  activate: () => import("../features/auth/pages/activate-page"),
  unlock: () => import("../features/auth/pages/unlock-page"),
  logout: () => import("../features/auth/pages/logout-page"),
  change: () => import("../features/auth/pages/change-password-page"),
};

const billing = {
  pricing: () => import("../features/billing/pages/pricing-page"),
  account: () => import("../features/billing/pages/billing-page"),
  payment: () => import("../features/billing/pages/subscription-payment-page"),
  purchase: () => import("../features/billing/pages/purchase-payment-page"),
  sales: () => import("../features/billing/pages/sales-page"),
  salesReport: () => import("../features/billing/pages/sales-report-page"),
  coupons: () => import("../features/billing/pages/coupons-page"),
  checkout: () => import("../features/billing/pages/checkout-plan-page"),
  receipt: () => import("../features/billing/pages/receipt-page"),
};

const courses = {
  catalog: () => import("../features/courses/pages/catalog-page"),
  detail: () => import("../features/courses/pages/course-page"),
  form: () => import("../features/courses/pages/course-form-page"),
  lessons: () => import("../features/lessons/pages/lessons-page"),
  lesson: () => import("../features/lessons/pages/lesson-page"),
};

const users = {
  list: () => import("../features/users/pages/users-page"),
  create: () => import("../features/users/pages/user-create-page"),
  edit: () => import("../features/users/pages/user-edit-page"),
  roles: () => import("../features/users/pages/roles-page"),
};

const events = {
  list: () => import("../features/events/pages/events-page"),
  detail: () => import("../features/events/pages/event-page"),
  manage: () => import("../features/events/pages/manage-events-page"),
  configs: () => import("../features/configs/pages/configs-page"),
};

const certificates = {
  page: () => import("../features/certificates/pages/certificate-page"),
  verify: () => import("../features/certificates/pages/verify-page"),
  admin: () => import("../features/certificates/pages/certificates-admin-page"),
};

const mail = {
  send: () => import("../features/mail/pages/send-page"),
  templates: () => import("../features/mail/pages/templates-page"),
};

const subscriptions = {
  preferences: () => import("../features/subscriptions/pages/mail-preferences-page"),
  unsubscribe: () => import("../features/subscriptions/pages/unsubscribe-page"),
};

/**
 * Pages a learner reaches from the signed-in menu as well as from the public site: catalogue,
 * course, plans and events. Signed in, they open inside the app's shell (its menu stays);
 * visitors get the public layout.
 */
const sharedRoutes: RouteObject[] = [
  { path: routes.courses, ...page(courses.catalog, (m) => m.CoursesPage) },
  { path: routes.coursesMore, ...page(courses.catalog, (m) => m.CoursesMorePage) },
  { path: routes.course, ...plainPage(courses.detail, (m) => m.CoursePage) },
  { path: routes.pricing, ...page(billing.pricing, (m) => m.PricingPage) },
  { path: routes.events, ...page(events.list, (m) => m.EventsPage) },
  { path: routes.event, ...page(events.detail, (m) => m.EventPage) },
];

const publicRoutes: RouteObject[] = [
  {
    index: true,
    // its own chunk too: a course page, where shared links lead, need not carry the home page
    lazy: async () => {
      const { HomePage } = await import("../features/site/pages/home-page");
      return {
        element: (
          <RootRedirect>
            <HomePage />
          </RootRedirect>
        ),
      };
    },
  },
  {
    path: routes.faqs,
    ...page(
      () => import("../features/site/pages/faq-page"),
      (m) => m.FaqPage,
    ),
  },
  {
    path: routes.contact,
    ...page(
      () => import("../features/site/pages/contact-page"),
      (m) => m.ContactPage,
    ),
  },
  { path: routes.login, ...page(auth.login, (m) => m.LoginPage) },
  { path: routes.loginCallback, ...page(auth.login, (m) => m.LoginPage) },
  { path: routes.logout, ...page(auth.logout, (m) => m.LogoutPage) },
  { path: routes.activate, ...page(auth.activate, (m) => m.ActivatePage) },
  { path: routes.unlock, ...page(auth.unlock, (m) => m.UnlockPage) },
  {
    element: <GuestOnly />,
    children: [
      { path: routes.forgotPassword, ...page(auth.forgot, (m) => m.ForgotPasswordPage) },
      { path: routes.resetPassword, ...page(auth.reset, (m) => m.ResetPasswordPage) },
      { path: routes.resetUserPassword, ...page(auth.reset, (m) => m.ResetPasswordPage) },
    ],
  },
  {
    path: routes.legal,
    ...plainPage(
      () => import("../features/site/pages/legal-page"),
      (m) => m.LegalPage,
    ),
  },
  { path: routes.certificateVerify, ...page(certificates.verify, (m) => m.CertificateVerifyPage) },
  { path: routes.unsubscribe, ...page(subscriptions.unsubscribe, (m) => m.UnsubscribePage) },
  // Legacy routes (spec §2) lead to their current pages.
  { path: routes.indexOld, element: <LegacyRedirect to={(lang) => localizePath("/", lang)} /> },
  { path: routes.indexV1, element: <LegacyRedirect to={(lang) => localizePath("/", lang)} /> },
  { path: routes.loginOld, element: <LegacyRedirect to={(lang) => localizePath(pagePath("login"), lang)} /> },
  {
    path: routes.registerOld,
    element: <LegacyRedirect to={(lang) => localizePath("/", lang)} state={{ authModal: "signup" }} />,
  },
  { path: routes.slugIndexOld, Component: SlugIndexOld },
  { path: "*", element: <NotFoundPage /> },
];

/** `/{slug}/index_old` → `/{slug}`. */
function SlugIndexOld() {
  const { slug = "" } = useParams();
  return <LegacyRedirect to={(lang) => localizePath(`/${encodeURIComponent(slug)}`, lang)} />;
}

function staff(slug: string, children: RouteObject[]): RouteObject {
  return { element: <RequirePermission slug={slug} />, children };
}

const appRoutes: RouteObject[] = [
  {
    path: routes.dashboard,
    ...plainPage(
      () => import("../features/dashboard/pages/dashboard-page"),
      (m) => m.DashboardPage,
    ),
  },
  {
    path: routes.profile,
    ...plainPage(
      () => import("../features/profile/pages/profile-page"),
      (m) => m.ProfilePage,
    ),
  },
  { path: routes.mailPreferences, ...plainPage(subscriptions.preferences, (m) => m.MailPreferencesPage) },
  { path: routes.changePassword, ...plainPage(auth.change, (m) => m.ChangePasswordPage) },
  { path: routes.billing, ...plainPage(billing.account, (m) => m.BillingPage) },
  { path: routes.receipt, ...plainPage(billing.receipt, (m) => m.ReceiptPage) },
  { path: routes.subscriptionPayment, ...plainPage(billing.payment, (m) => m.SubscriptionPaymentPage) },
  { path: routes.purchasePayment, ...plainPage(billing.purchase, (m) => m.PurchasePaymentPage) },
  { path: routes.upgradePayment, ...plainPage(billing.checkout, (m) => m.UpgradePaymentPage) },
  { path: routes.paypal, ...plainPage(billing.checkout, (m) => m.PaypalPage) },
  { path: routes.card, ...plainPage(billing.checkout, (m) => m.CardPage) },
  { path: routes.protected, element: <ComingSoon page="protected" backTo={pagePath("dashboard")} /> },
  { path: routes.lessons, ...plainPage(courses.lessons, (m) => m.LessonsPage) },
  { path: routes.lesson, ...plainPage(courses.lesson, (m) => m.LessonPage) },
  {
    path: routes.downloads,
    ...plainPage(
      () => import("../features/downloads/pages/downloads-page"),
      (m) => m.DownloadsPage,
    ),
  },
  {
    path: routes.practice,
    ...plainPage(
      () => import("../features/practice/pages/practice-page"),
      (m) => m.PracticePage,
    ),
  },
  {
    path: routes.practiceHandsFree,
    ...plainPage(
      () => import("../features/practice/pages/hands-free-page"),
      (m) => m.HandsFreePage,
    ),
  },
  {
    path: routes.welcome,
    ...plainPage(
      () => import("../features/welcome/pages/welcome-page"),
      (m) => m.WelcomePage,
    ),
  },
  {
    path: routes.review,
    ...plainPage(
      () => import("../features/review/pages/review-page"),
      (m) => m.ReviewPage,
    ),
  },
  staff(PERMISSIONS.coursesManage, [
    { path: routes.courseCreate, ...plainPage(courses.form, (m) => m.CourseCreatePage) },
    { path: routes.courseEdit, ...plainPage(courses.form, (m) => m.CourseEditPage) },
  ]),
  staff(PERMISSIONS.plansManage, [
    {
      path: routes.plans,
      ...plainPage(
        () => import("../features/plans/pages/plans-page"),
        (m) => m.PlansPage,
      ),
    },
  ]),
  staff(PERMISSIONS.settingsManage, [
    {
      path: routes.setting,
      ...plainPage(
        () => import("../features/settings/pages/settings-page"),
        (m) => m.SettingsPage,
      ),
    },
  ]),
  staff(PERMISSIONS.usersRead, [
    { path: routes.users, ...plainPage(users.list, (m) => m.UsersPage) },
    { path: routes.customers, ...plainPage(users.list, (m) => m.CustomersPage) },
  ]),
  staff(PERMISSIONS.usersManage, [
    { path: routes.userCreate, ...plainPage(users.create, (m) => m.UserCreatePage) },
    { path: routes.userEdit, ...plainPage(users.edit, (m) => m.UserEditPage) },
  ]),
  staff(PERMISSIONS.rolesManage, [{ path: routes.roles, ...plainPage(users.roles, (m) => m.RolesPage) }]),
  staff(PERMISSIONS.eventsManage, [
    { path: routes.eventsManage, ...plainPage(events.manage, (m) => m.ManageEventsPage) },
  ]),
  staff(PERMISSIONS.configsManage, [
    { path: routes.configs, ...plainPage(events.configs, (m) => m.ConfigsPage) },
  ]),
  staff(PERMISSIONS.auditRead, [
    {
      path: routes.audit,
      ...plainPage(
        () => import("../features/audit/pages/audit-page"),
        (m) => m.AuditPage,
      ),
    },
  ]),
  staff(PERMISSIONS.privacyManage, [
    {
      path: routes.dataRequests,
      ...plainPage(
        () => import("../features/privacy/pages/data-requests-page"),
        (m) => m.DataRequestsPage,
      ),
    },
  ]),
  { path: routes.certificate, ...plainPage(certificates.page, (m) => m.CertificatePage) },
  staff(PERMISSIONS.customerPlansManage, [
    { path: routes.sales, ...plainPage(billing.sales, (m) => m.SalesPage) },
    { path: routes.salesReport, ...plainPage(billing.salesReport, (m) => m.SalesReportPage) },
  ]),
  staff(PERMISSIONS.plansManage, [
    { path: routes.coupons, ...plainPage(billing.coupons, (m) => m.CouponsPage) },
  ]),
  staff(PERMISSIONS.certificatesManage, [
    { path: routes.certificates, ...plainPage(certificates.admin, (m) => m.CertificatesAdminPage) },
  ]),
  staff(PERMISSIONS.analyticsRead, [
    {
      path: routes.analytics,
      ...plainPage(
        () => import("../features/analytics/pages/analytics-page"),
        (m) => m.AnalyticsPage,
      ),
    },
  ]),
  staff(PERMISSIONS.mailManage, [
    { path: routes.mailSend, ...plainPage(mail.send, (m) => m.MailSendPage) },
    { path: routes.mailTemplates, ...plainPage(mail.templates, (m) => m.MailTemplatesPage) },
  ]),
];

function localeRoutes(lang: Lang): RouteObject {
  return {
    path: localizePath("/", lang),
    element: <LocaleRoot lang={lang} />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageSpinner label="" />,
    children: [
      {
        element: <SessionLayout />,
        children: [{ errorElement: <RouteError />, children: ownProviders(sharedRoutes) }],
      },
      { element: <PublicLayout />, children: [{ errorElement: <RouteError />, children: publicRoutes }] },
      {
        element: <RequireAuth />,
        children: [
          {
            // the signed-in shell (menu, notifications) is its own chunk: visitors never load it
            lazy: async () => {
              const [{ AppLayout }] = await Promise.all([import("./layouts/app-layout"), loadShellTexts()]);
              return { Component: AppLayout };
            },
            children: [{ errorElement: <RouteError />, children: withAntdProviders(appRoutes) }],
          },
        ],
      },
    ],
  };
}

/** One tree per language, the prefixed ones first (the unprefixed default language's `/` matches last). */
export const appRouteTree: RouteObject[] = [...LANGS.filter((l) => l !== DEFAULT_LANG), DEFAULT_LANG].map(
  localeRoutes,
);

export function createAppRouter() {
  return createBrowserRouter(appRouteTree);
}

/**
 * Loads the lazy routes a URL renders, before the router is created: hydrating a server-rendered
 * page must render the same page at once, not a fallback while its chunk loads.
 */
export async function preloadRoutes(pathname: string): Promise<void> {
  const matches = matchRoutes(appRouteTree, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== "function") return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}
