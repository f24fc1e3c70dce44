import { Button, Layout, Space } from "antd";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router";
import { useAuthModals } from "../../components/auth-modal-context";
import { ButtonLink } from "../../components/button-link";
import { LangSwitch } from "../../components/lang-switch";
import { AuthModalsProvider } from "../../features/auth/components/auth-modals";
import { stripLang } from "../../lib/locale-path";
import { useSession } from "../../lib/session";
import { useLocalePath } from "../../lib/use-locale";

/** Public layout (spec §2): top bar and footer with the copyright year. */
export function PublicLayout() {
  return (
    <AuthModalsProvider>
      <Layout className="public-layout">
        <SkipLink />
        <PublicHeader />
        <Layout.Content id="main" tabIndex={-1} className="public-main">
          <Outlet />
        </Layout.Content>
        <PublicFooter />
      </Layout>
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
    <Layout.Header className="site-header">
      <div className="container site-header__inner">
        <Link to={to("/")} className="logo" aria-label={t("common:nav.home")} data-testid="home-link">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Parlons</span>
        </Link>
        <nav aria-label={t("common:nav.main")} className="site-nav">
          <Link to={to("/events")} className="site-nav__link" data-testid="nav-events">
            {t("events:nav.link")}
          </Link>
          <Link to={to("/faqs")} className="site-nav__link" data-testid="nav-faq">
            {t("common:nav.faq")}
          </Link>
          <Link to={to("/contact")} className="site-nav__link" data-testid="nav-contact">
            {t("common:nav.contact")}
          </Link>
          <LangSwitch />
          {status === "authenticated" ? (
            <ButtonLink type="primary" to={to("/dashboard")} data-testid="header-dashboard">
              {t("common:nav.dashboard")}
            </ButtonLink>
          ) : (
            <Space size={8}>
              <Button onClick={openLogin} data-testid="header-login">
                {t("common:nav.login")}
              </Button>
              <Button type="primary" onClick={() => modals.show("signup")} data-testid="header-signup">
                {t("common:nav.signup")}
              </Button>
            </Space>
          )}
        </nav>
      </div>
    </Layout.Header>
  );
}

function PublicFooter() {
  const { t } = useTranslation();
  return (
    <Layout.Footer className="site-footer">
      <div className="container site-footer__inner">
        <span data-testid="copyright">{t("common:footer.rights", { year: new Date().getFullYear() })}</span>
        <span>{t("common:footer.tagline")}</span>
      </div>
    </Layout.Footer>
  );
}
