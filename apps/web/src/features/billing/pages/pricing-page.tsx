import { CheckOutlined, CrownOutlined } from "@ant-design/icons";
import {
  PERMISSIONS,
  type Plan,
  type PlanFeature,
  type PublicPlan,
  pickField,
  pickList,
} from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { useAuthModals } from "@/components/auth-modal-context";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { providersQuery } from "../api/billing-api";
import { activePlansQuery } from "../api/plan-queries";
import { useStartCheckout } from "../api/use-start-checkout";
import { PlanPrice } from "../components/plan-price";
import { extraFeatures, freePlanOf } from "../lib/plan-features";
import "../billing.css";

/** `/pricing` (public): the active plans side by side, the current one marked, a call to action each. */
export function PricingPage() {
  const { t } = useTranslation();
  usePageTitle(t("billing:pricing.title"));
  const [params, setParams] = useSearchParams();
  const plans = useQuery(activePlansQuery);
  const cancelled = params.get("checkout") === "cancelled";

  return (
    <div className="container section">
      <div className="pricing-head">
        <Typography.Title level={1}>{t("billing:pricing.title")}</Typography.Title>
        <Typography.Paragraph type="secondary">{t("billing:pricing.subtitle")}</Typography.Paragraph>
      </div>
      {cancelled && (
        <Alert
          type="warning"
          showIcon
          closable={{
            "aria-label": t("common:actions.close"),
            onClose: () => {
              params.delete("checkout");
              setParams(params, { replace: true });
            },
          }}
          title={t("billing:pricing.cancelledTitle")}
          description={t("billing:pricing.cancelledText")}
          data-testid="checkout-cancelled"
          style={{ marginBottom: 24 }}
        />
      )}
      {plans.isPending ? (
        <Row gutter={[24, 24]}>
          {[1, 2, 3].map((n) => (
            <Col key={n} xs={24} md={12} lg={8}>
              <Card>
                <Skeleton active paragraph={{ rows: 5 }} />
              </Card>
            </Col>
          ))}
        </Row>
      ) : plans.isError ? (
        <LoadError query={plans} compact />
      ) : plans.data.length === 0 ? (
        <Empty description={t("billing:pricing.empty")} />
      ) : (
        <Row gutter={[24, 24]} align="stretch">
          {plans.data.map((plan) => (
            <Col key={plan.id} xs={24} md={12} lg={8}>
              <PlanCard plan={plan} free={freePlanOf(plans.data)} />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}

/**
 * A plan's card: the free plan lists what it opens; a paid plan what it adds to the free plan
 * (both derived by the API from what the plan opens among what exists), then what staff wrote
 * that neither list already says.
 */
function PlanCard({ plan, free }: { plan: PublicPlan; free: PublicPlan | undefined }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { user } = useSession();
  const current = !!user && user.plan_id === plan.id;
  const description = pickField(plan, "description", lang);
  const name = planName(plan, lang);
  const text = (feature: PlanFeature) =>
    feature === "courseLessons"
      ? t("billing:pricing.reachCourses", {
          courses: plan.courses.map((c) => pickField(c, "title", lang)).join(", "),
        })
      : t(`billing:pricing.opens.${feature}`);
  const opened = plan.opens.map(text);
  const beyond = plan.premium && free ? free : undefined;
  const taken = beyond
    ? [...opened, ...beyond.opens.map(text), ...pickList(beyond, "features", lang)]
    : opened;
  const extras = extraFeatures(pickList(plan, "features", lang), taken);

  return (
    <Card
      className={`plan-card${current ? " plan-card--current" : ""}${plan.premium ? " plan-card--premium" : ""}`}
      data-testid="pricing-plan"
      data-plan-id={plan.id}
      data-current={current ? "true" : undefined}
      title={
        <span>
          {plan.premium && <CrownOutlined aria-hidden className="plan-card__crown" />} {name}
        </span>
      }
      extra={
        current ? (
          <Tag color="green" data-testid="current-plan">
            {t("billing:pricing.current")}
          </Tag>
        ) : null
      }
    >
      <div className="plan-card__body">
        <PlanPrice className="plan-price" plan={plan} />
        {description && <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>}
        {beyond && (
          <Typography.Paragraph className="plan-card__beyond" data-testid="plan-beyond">
            {t("billing:pricing.beyond", { plan: planName(beyond, lang) })}
          </Typography.Paragraph>
        )}
        <ul className="plan-card__features" aria-label={t("billing:pricing.features")}>
          {opened.map((feature) => (
            <li key={feature} data-testid="plan-opens">
              <CheckOutlined aria-hidden className="plan-card__check" /> {feature}
            </li>
          ))}
          {extras.map((feature) => (
            <li key={feature} data-testid="plan-extra">
              <CheckOutlined aria-hidden className="plan-card__check" /> {feature}
            </li>
          ))}
        </ul>
        <div className="plan-card__cta">
          <PlanAction plan={plan} current={current} name={name} />
        </div>
      </div>
    </Card>
  );
}

/** Logged out → the signup modal; free learner → checkout; current plan → nothing to buy. */
function PlanAction({ plan, current, name }: { plan: Plan; current: boolean; name: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { status, user } = useSession();
  const modals = useAuthModals();
  const providers = useQuery({ ...providersQuery, enabled: status === "authenticated" && plan.premium });
  const checkout = useStartCheckout();
  const [starting, setStarting] = useState(false);

  if (status !== "authenticated" || !user) {
    return (
      <Button
        block
        size="large"
        type={plan.premium ? "primary" : "default"}
        data-testid="choose-plan"
        onClick={() => modals.show("signup")}
      >
        {plan.premium ? t("billing:pricing.choose", { plan: name }) : t("billing:pricing.startFree")}
      </Button>
    );
  }
  if (current) {
    return (
      <Button block size="large" disabled>
        {t("billing:pricing.yourPlan")}
      </Button>
    );
  }
  if (!hasPermission(user, PERMISSIONS.subscribe)) {
    return <Typography.Text type="secondary">{t("billing:pricing.learnersOnly")}</Typography.Text>;
  }
  if (!plan.premium) {
    return (
      <ButtonLink block size="large" to={to(pagePath("billing"))}>
        {t("billing:pricing.manage")}
      </ButtonLink>
    );
  }

  const choose = () => {
    const options = providers.data?.checkout ?? [];
    // One way to pay (the demo checkout): go straight to it; PayPal and card: let the learner pick.
    if (options.length === 1 && options[0] === "demo") {
      setStarting(true);
      checkout.mutate({ planId: plan.id, provider: "demo" }, { onSettled: () => setStarting(false) });
    } else {
      navigate(to(pagePath("upgradePayment", {}, { plan: plan.id })));
    }
  };
  return (
    <Button
      block
      size="large"
      type="primary"
      data-testid="choose-plan"
      loading={starting || providers.isPending}
      onClick={choose}
    >
      {t("billing:pricing.choose", { plan: name })}
    </Button>
  );
}
