import { CrownOutlined } from "@ant-design/icons";
import { PERMISSIONS } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Row, Space, Tag, Typography } from "antd";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { myCertificatesQuery } from "@/features/certificates/api/certificate-queries";
import { CertificatesCard } from "@/features/certificates/components/certificates-card";
import { LearnerProgress } from "@/features/courses/components/learner-progress";
import { MyBookingsCard } from "@/features/events/components/my-bookings-card";
import { habitSummaryQuery } from "@/features/habit/api/habit-api";
import { HabitCard } from "@/features/habit/components/habit-card";
import { PracticeCard } from "@/features/practice/components/practice-card";
import { ReviewDueCard } from "@/features/review/components/review-due-card";
import { WordsCard } from "@/features/words/components/words-card";
import { isFreePlan, planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { hasPermission, isAdmin, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";

// staff only: its code loads for them, not with every learner's dashboard
const StaffOverviewCard = lazy(() =>
  import("@/features/analytics/components/staff-overview-card").then((m) => ({
    default: m.StaffOverviewCard,
  })),
);

/** `/dashboard`: greeting, the user's plan, their courses in progress; for staff, the business. */
export function DashboardPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  usePageTitle(t("app:dashboard.title"));
  // a learner who has not gone through the welcome yet: a first visit, not "welcome back"
  const habit = useQuery({ ...habitSummaryQuery, enabled: Boolean(user) });
  if (!user) return null;

  const admin = isAdmin(user);
  const staff = hasPermission(user, PERMISSIONS.dashboardAdmin);
  const name = user.full_name.trim() || user.email;
  const free = isFreePlan(user.plan);
  const plan = admin ? t("app:plan.discovery") : user.plan ? planName(user.plan, lang) : t("app:plan.none");
  const kind = free ? t("app:plan.free") : t("app:plan.premium");
  const firstVisit = !admin && habit.data?.welcomed === false;

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title" data-testid="dashboard-greeting">
          {t(firstVisit ? "app:dashboard.firstGreeting" : "app:dashboard.greeting", { name })}
        </Typography.Title>
        <Typography.Text type="secondary" data-testid="dashboard-subtitle">
          {/* nothing until the habit is known: a first visit must not read "welcome back" */}
          {habit.data || habit.isError || admin
            ? t(firstVisit ? "app:dashboard.firstSubtitle" : "app:dashboard.subtitle")
            : "\u00a0"}
        </Typography.Text>
      </div>
      {firstVisit && (
        <Card data-testid="welcome-card" title={t("habit:welcome.dashboardTitle")}>
          <Typography.Paragraph>{t("habit:welcome.dashboardText")}</Typography.Paragraph>
          <ButtonLink to={to(pagePath("welcome"))} type="primary" data-testid="welcome-cta">
            {t("habit:welcome.dashboardCta")}
          </ButtonLink>
        </Card>
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card
            title={
              <span>
                <CrownOutlined /> {t("app:dashboard.planTitle")}
              </span>
            }
          >
            <Typography.Title level={3} style={{ marginTop: 0 }} data-testid="dashboard-plan">
              {plan} {/* no "Premium Premium": the kind only when the plan's name does not already say it */}
              {!sameWords(plan, kind) && <Tag color={free ? "default" : "gold"}>{kind}</Tag>}
            </Typography.Title>
            {!admin && (
              <>
                <Typography.Paragraph type="secondary">
                  {free ? t("app:dashboard.planFree") : t("app:dashboard.planPremium")}
                </Typography.Paragraph>
                {free && (
                  <ButtonLink to={to(pagePath("pricing"))} type="primary">
                    {t("app:dashboard.seePricing")}
                  </ButtonLink>
                )}
              </>
            )}
          </Card>
        </Col>
        {staff && (
          <Col xs={24} md={12}>
            <Suspense fallback={<Card loading />}>
              <StaffOverviewCard />
            </Suspense>
          </Col>
        )}
        <Col xs={24} md={staff ? 24 : 12}>
          <LearnerProgress />
        </Col>
        <Col xs={24} md={12}>
          <HabitCard />
        </Col>
        <Col xs={24} md={12}>
          <ReviewDueCard />
        </Col>
        <Col xs={24} md={12}>
          <PracticeCard />
        </Col>
        <Col xs={24} md={12}>
          <WordsCard />
        </Col>
        <CertificatesCol />
        {hasPermission(user, PERMISSIONS.eventsBook) && (
          <Col xs={24} md={12}>
            <MyBookingsCard />
          </Col>
        )}
      </Row>
    </Space>
  );
}

/** The learner's certificates, once they earned one (no empty card before). */
function CertificatesCol() {
  const { data } = useQuery(myCertificatesQuery);
  if (!data?.length) return null;
  return (
    <Col xs={24} md={12}>
      <CertificatesCard />
    </Col>
  );
}

/** Whether two labels say the same ("Premium" and "premium "). */
function sameWords(a: string, b: string): boolean {
  return a.trim().localeCompare(b.trim(), undefined, { sensitivity: "base" }) === 0;
}
