import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router";
import { useAuthModals } from "@/components/auth-modal-context";
import { LangSwitch } from "@/components/lang-switch";
import { PlainButton, PlainButtonLink } from "@/components/plain-button";
import { AuthModalsProvider } from "@/features/auth/components/auth-modals";
import { stripLang } from "@/lib/locale-path";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLocalePath } from "@/lib/use-locale";

/**
 * Public layout (spec §2): top bar and footer with the copyright year. Plain markup (no antd):
 * it is on every public page's first paint.
 */
export function PublicLayout() {
  return (
    <AuthModalsProvider>
      <div className="public-layout">
        <SkipLink />
        <PublicHeader />
        <main id="main" tabIndex={-1} className="public-main">
          <Outlet />
        </main>
        <PublicFooter />
      </div>
    </AuthModalsProvider>
  );
}

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t("common:nav.skip")}
    </a>
  );
}

/** The public pages' menu: the page and its label (`common:nav.<key>`), also its test id. */
const NAV = [
  { page: "pricing", testId: "pricing" },
  { page: "events", testId: "events" },
  { page: "faqs", testId: "faq" },
  { page: "contact", testId: "contact" },
] as const;

function PublicHeader() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const modals = useAuthModals();
  const { status } = useSession();
  const { pathname } = useLocation();
  // On the login page itself, go to its form rather than stacking the same form in a modal.
  const onLoginPage = /^\/(auth\/login|login)$/.test(stripLang(pathname));
  const openLogin = () => {
    const field = onLoginPage ? document.getElementById("login-page_username") : null;
    if (field) field.focus();
    else modals.show("login");
  };
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to={to("/")} className="logo" aria-label={t("common:nav.home")} data-testid="home-link">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Parlons</span>
        </Link>
        <nav aria-label={t("common:nav.main")} className="site-nav">
          {NAV.map((item) => (
            <Link
              key={item.page}
              to={to(pagePath(item.page))}
              className="site-nav__link"
              data-testid={`nav-${item.testId}`}
            >
              {t(`common:nav.${item.testId}`)}
            </Link>
          ))}
          <LangSwitch />
          {status === "authenticated" ? (
            <PlainButtonLink kind="primary" to={to(pagePath("dashboard"))} data-testid="header-dashboard">
              {t("common:nav.dashboard")}
            </PlainButtonLink>
          ) : (
            <span className="site-nav__actions">
              <PlainButton onClick={openLogin} data-testid="header-login">
                {t("common:nav.login")}
              </PlainButton>
              <PlainButton kind="primary" onClick={() => modals.show("signup")} data-testid="header-signup">
                {t("common:nav.signup")}
              </PlainButton>
            </span>
          )}
        </nav>
      </div>
    </header>
  );
}

const LEGAL_LINKS = [
  ["legal-notice", "legalNotice"],
  ["privacy", "privacy"],
  ["terms", "terms"],
  ["cookies", "cookies"],
] as const;

function PublicFooter() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <span data-testid="copyright">{t("common:footer.rights", { year: new Date().getFullYear() })}</span>
        <span>{t("common:footer.tagline")}</span>
      </div>
      <nav className="container site-footer__legal" aria-label={t("common:footer.legal")}>
        {LEGAL_LINKS.map(([page, key]) => (
          <Link key={page} to={to(pagePath("legal", { page }))} data-testid={`footer-${page}`}>
            {t(`common:footer.${key}`)}
          </Link>
        ))}
      </nav>
    </footer>
  );
}
