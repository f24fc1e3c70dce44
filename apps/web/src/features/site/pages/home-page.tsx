import CustomerServiceOutlined from "@ant-design/icons-svg/es/asn/CustomerServiceOutlined";
import DashboardOutlined from "@ant-design/icons-svg/es/asn/DashboardOutlined";
import GlobalOutlined from "@ant-design/icons-svg/es/asn/GlobalOutlined";
import MobileOutlined from "@ant-design/icons-svg/es/asn/MobileOutlined";
import PlayCircleOutlined from "@ant-design/icons-svg/es/asn/PlayCircleOutlined";
import UserAddOutlined from "@ant-design/icons-svg/es/asn/UserAddOutlined";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAuthModals } from "@/components/auth-modal-context";
import { PlainButton, PlainButtonLink } from "@/components/plain-button";
import { PlainIcon } from "@/components/plain-icon";
import { PopularCourses } from "@/features/courses/components/popular-courses";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";

const STEPS = [
  { n: 1, icon: <PlainIcon icon={UserAddOutlined} /> },
  { n: 2, icon: <PlainIcon icon={CustomerServiceOutlined} /> },
  { n: 3, icon: <PlainIcon icon={PlayCircleOutlined} /> },
] as const;

const FEATURES = [
  { n: 1, icon: <PlainIcon icon={DashboardOutlined} /> },
  { n: 2, icon: <PlainIcon icon={MobileOutlined} /> },
  { n: 3, icon: <PlainIcon icon={GlobalOutlined} /> },
] as const;

/** Landing page: hero, how it works, features, call to action. Plain markup: it is the first page most visitors load. */
export function HomePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const modals = useAuthModals();
  const { status } = useSession();
  usePageTitle(null);

  const signupButton =
    status === "authenticated" ? (
      <PlainButtonLink kind="primary" size="large" to={to(pagePath("dashboard"))}>
        {t("common:nav.dashboard")}
      </PlainButtonLink>
    ) : (
      <PlainButton
        kind="primary"
        size="large"
        onClick={() => modals.show("signup")}
        data-testid="hero-signup"
      >
        {t("site:home.ctaSignup")}
      </PlainButton>
    );

  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <span className="hero__eyebrow">{t("site:home.eyebrow")}</span>
          <h1 id="hero-title" className="heading heading--1 hero__title">
            {t("site:home.heroTitle")}
          </h1>
          <p className="hero__text">{t("site:home.heroText")}</p>
          <div className="actions">
            {signupButton}
            <PlainButtonLink size="large" to={to(pagePath("courses"))}>
              {t("site:home.ctaCourses")}
            </PlainButtonLink>
          </div>
        </div>
      </section>

      <PopularCourses />

      <GridSection id="how-title" title={t("site:home.howTitle")}>
        {STEPS.map((step) => (
          <div className="card step-card" key={step.n}>
            <div className="step-card__icon" aria-hidden="true">
              {step.icon}
            </div>
            <h3 className="heading heading--3">
              {step.n}. {t(`site:home.step${step.n}Title`)}
            </h3>
            <p className="text-secondary">{t(`site:home.step${step.n}Text`)}</p>
          </div>
        ))}
      </GridSection>

      <GridSection id="features-title" title={t("site:home.featuresTitle")}>
        {FEATURES.map((feature) => (
          <div className="feature" key={feature.n}>
            <span className="feature__icon" aria-hidden="true">
              {feature.icon}
            </span>
            <div>
              <h3 className="heading heading--3">{t(`site:home.feature${feature.n}Title`)}</h3>
              <p className="text-secondary">{t(`site:home.feature${feature.n}Text`)}</p>
            </div>
          </div>
        ))}
      </GridSection>

      <section className="cta-band" aria-labelledby="cta-title">
        <div className="container">
          <h2 id="cta-title" className="heading heading--2">
            {t("site:home.ctaBandTitle")}
          </h2>
          <p>{t("site:home.ctaBandText")}</p>
          {signupButton}
        </div>
      </section>
    </div>
  );
}

/** A section of the home page: its heading, then its cards three to a row. */
function GridSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="container section" aria-labelledby={id}>
      <h2 id={id} className="heading heading--2">
        {title}
      </h2>
      <div className="grid grid--3">{children}</div>
    </section>
  );
}
