import {
  CustomerServiceOutlined,
  DashboardOutlined,
  GlobalOutlined,
  MobileOutlined,
  PlayCircleOutlined,
  UserAddOutlined,
} from "@ant-design/icons";
import { Button, Card, Col, Row, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useAuthModals } from "../../../components/auth-modal-context";
import { ButtonLink } from "../../../components/button-link";
import { PopularCourses } from "../../../components/courses/popular-courses";
import { useSession } from "../../../lib/session";
import { useLocalePath } from "../../../lib/use-locale";
import { usePageTitle } from "../../../lib/use-page-title";

const STEPS = [
  { n: 1, icon: <UserAddOutlined /> },
  { n: 2, icon: <CustomerServiceOutlined /> },
  { n: 3, icon: <PlayCircleOutlined /> },
] as const;

const FEATURES = [
  { n: 1, icon: <DashboardOutlined /> },
  { n: 2, icon: <MobileOutlined /> },
  { n: 3, icon: <GlobalOutlined /> },
] as const;

/** Landing page: hero, how it works, features, call to action. */
export function HomePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const modals = useAuthModals();
  const { status } = useSession();
  usePageTitle(null);

  const signupButton =
    status === "authenticated" ? (
      <ButtonLink type="primary" size="large" to={to("/dashboard")}>
        {t("common:nav.dashboard")}
      </ButtonLink>
    ) : (
      <Button type="primary" size="large" onClick={() => modals.show("signup")} data-testid="hero-signup">
        {t("site:home.ctaSignup")}
      </Button>
    );

  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <Typography.Text className="hero__eyebrow">{t("site:home.eyebrow")}</Typography.Text>
          <Typography.Title id="hero-title" level={1} className="hero__title">
            {t("site:home.heroTitle")}
          </Typography.Title>
          <Typography.Paragraph className="hero__text">{t("site:home.heroText")}</Typography.Paragraph>
          <Space wrap size="middle">
            {signupButton}
            <ButtonLink size="large" to={to("/courses")}>
              {t("site:home.ctaCourses")}
            </ButtonLink>
          </Space>
        </div>
      </section>

      <PopularCourses />

      <section className="container section" aria-labelledby="how-title">
        <Typography.Title id="how-title" level={2}>
          {t("site:home.howTitle")}
        </Typography.Title>
        <Row gutter={[24, 24]}>
          {STEPS.map((step) => (
            <Col xs={24} md={8} key={step.n}>
              <Card className="step-card">
                <div className="step-card__icon" aria-hidden="true">
                  {step.icon}
                </div>
                <Typography.Title level={3}>
                  {step.n}. {t(`site:home.step${step.n}Title`)}
                </Typography.Title>
                <Typography.Paragraph type="secondary">
                  {t(`site:home.step${step.n}Text`)}
                </Typography.Paragraph>
              </Card>
            </Col>
          ))}
        </Row>
      </section>

      <section className="container section" aria-labelledby="features-title">
        <Typography.Title id="features-title" level={2}>
          {t("site:home.featuresTitle")}
        </Typography.Title>
        <Row gutter={[24, 24]}>
          {FEATURES.map((feature) => (
            <Col xs={24} md={8} key={feature.n}>
              <div className="feature">
                <span className="feature__icon" aria-hidden="true">
                  {feature.icon}
                </span>
                <div>
                  <Typography.Title level={3}>{t(`site:home.feature${feature.n}Title`)}</Typography.Title>
                  <Typography.Paragraph type="secondary">
                    {t(`site:home.feature${feature.n}Text`)}
                  </Typography.Paragraph>
                </div>
              </div>
            </Col>
          ))}
        </Row>
      </section>

      <section className="cta-band" aria-labelledby="cta-title">
        <div className="container">
          <Typography.Title id="cta-title" level={2}>
            {t("site:home.ctaBandTitle")}
          </Typography.Title>
          <Typography.Paragraph>{t("site:home.ctaBandText")}</Typography.Paragraph>
          {signupButton}
        </div>
      </section>
    </div>
  );
}
