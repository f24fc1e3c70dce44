import { CreditCardOutlined, ExperimentOutlined, LockOutlined, PayCircleOutlined } from "@ant-design/icons";
import type { CheckoutProvider, CouponQuote, Plan } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Radio, Result, Skeleton, Space, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { browserCountry } from "@/lib/countries";
import { planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { providersQuery } from "../api/billing-api";
import { activePlansQuery } from "../api/plan-queries";
import { useStartCheckout } from "../api/use-start-checkout";
import { CountryField } from "../components/country-field";
import { CouponField } from "../components/coupon-field";
import { PlanPrice, useTrialAvailable } from "../components/plan-price";
import "../billing.css";

type Only = "paypal" | "card";

/** `/billing/upgrade-payment?plan=`: choose a premium plan, then a way to pay. */
export function UpgradePaymentPage() {
  const [params] = useSearchParams();
  return <CheckoutPlanPage titleKey="billing:upgrade.title" initialPlanId={params.get("plan")} />;
}

/** `/paypal?plan=`: the PayPal checkout entry. */
export function PaypalPage() {
  const [params] = useSearchParams();
  return (
    <CheckoutPlanPage
      titleKey="billing:upgrade.paypalTitle"
      initialPlanId={params.get("plan")}
      only="paypal"
    />
  );
}

/** `/Card/{id}`: the card option (PayPal's card funding) for plan `{id}`; card numbers never reach us. */
export function CardPage() {
  const { id = "" } = useParams();
  return <CheckoutPlanPage titleKey="billing:upgrade.cardTitle" initialPlanId={id} only="card" fixedPlan />;
}

function CheckoutPlanPage({
  titleKey,
  initialPlanId,
  only,
  fixedPlan = false,
}: {
  titleKey: string;
  initialPlanId: string | null;
  only?: Only;
  fixedPlan?: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  usePageTitle(t(titleKey));
  const plans = useQuery(activePlansQuery);
  const premium = (plans.data ?? []).filter((p) => p.premium);
  const [chosen, setChosen] = useState<string | null>(initialPlanId);
  const selectable = premium.filter((p) => p.id !== user?.plan_id);
  const planId = chosen ?? selectable[0]?.id ?? null;
  const plan = premium.find((p) => p.id === planId) ?? null;

  let body: ReactNode;
  if (plans.isPending) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (plans.isError)
    body = (
      <Result
        status="warning"
        title={t("billing:pricing.loadError")}
        extra={<Button onClick={() => void plans.refetch()}>{t("billing:actions.retry")}</Button>}
      />
    );
  else if (premium.length === 0) body = <Empty description={t("billing:upgrade.noPlans")} />;
  else if (fixedPlan && !plan)
    body = (
      <Result
        status="404"
        title={t("billing:upgrade.unknownPlan")}
        extra={
          <ButtonLink type="primary" to={to(pagePath("pricing"))}>
            {t("billing:result.toPricing")}
          </ButtonLink>
        }
      />
    );
  else
    body = (
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        {!fixedPlan && (
          <section aria-labelledby="choose-plan-title">
            <Typography.Title level={2} id="choose-plan-title" style={{ fontSize: "1.15rem" }}>
              {t("billing:upgrade.step1")}
            </Typography.Title>
            <Radio.Group
              value={planId}
              onChange={(e) => setChosen(e.target.value as string)}
              style={{ width: "100%" }}
            >
              {premium.map((p) => (
                <Radio key={p.id} value={p.id} className="checkout-option" data-testid="upgrade-plan-option">
                  <strong>{planName(p, lang)}</strong> · <PlanPrice plan={p} />
                  {p.id === user?.plan_id && <> · {t("billing:pricing.current")}</>}
                </Radio>
              ))}
            </Radio.Group>
          </section>
        )}
        {plan && (
          <section aria-labelledby="pay-title">
            <Typography.Title level={2} id="pay-title" style={{ fontSize: "1.15rem" }}>
              {fixedPlan
                ? t("billing:upgrade.planLine", { plan: planName(plan, lang) })
                : t("billing:upgrade.step2")}
            </Typography.Title>
            {fixedPlan && (
              <Typography.Paragraph>
                <PlanPrice plan={plan} />
              </Typography.Paragraph>
            )}
            <CheckoutOptions key={plan.id} plan={plan} only={only} current={plan.id === user?.plan_id} />
          </section>
        )}
      </Space>
    );

  return (
    <div className="checkout-page">
      <Card>
        <Typography.Title level={1} style={{ marginTop: 0 }}>
          {t(titleKey)}
        </Typography.Title>
        {body}
      </Card>
    </div>
  );
}

const ICONS: Record<CheckoutProvider, ReactNode> = {
  paypal: <PayCircleOutlined />,
  card: <CreditCardOutlined />,
  demo: <ExperimentOutlined />,
};

/** The pay buttons the server offers (`GET /v1/billing/providers`), optionally narrowed to one. */
function CheckoutOptions({ plan, only, current }: { plan: Plan; only?: Only; current: boolean }) {
  const { t } = useTranslation();
  const providers = useQuery(providersQuery);
  const checkout = useStartCheckout();
  const [coupon, setCoupon] = useState<CouponQuote | null>(null);
  const [country, setCountry] = useState<string | undefined>(browserCountry);
  const once = plan.interval === "once";
  const trialOffered = !once && plan.trial_days > 0;
  const trial = useTrialAvailable(trialOffered);

  if (current) return <Alert type="info" showIcon title={t("billing:upgrade.alreadyOnPlan")} />;
  if (providers.isPending) return <Skeleton.Button active block />;
  if (providers.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t("billing:upgrade.providersError")}
        action={<Button onClick={() => void providers.refetch()}>{t("billing:actions.retry")}</Button>}
      />
    );

  const offered = providers.data.checkout;
  const wanted = only && offered.includes(only) ? [only] : offered;
  const unavailable = only !== undefined && !offered.includes(only);

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      {unavailable && (
        <Alert
          type="info"
          showIcon
          title={t("billing:upgrade.unavailable", { method: t(`billing:provider.${only}`) })}
        />
      )}
      <CouponField key={plan.id} planId={plan.id} applied={coupon} onApplied={setCoupon} recurring={!once} />
      {trialOffered && (
        <Alert
          type="info"
          showIcon
          data-testid="checkout-trial"
          title={
            !trial
              ? t("billing:checkout.trialUsed")
              : coupon?.duration === "once"
                ? t("billing:checkout.trialThenCoupon", { count: plan.trial_days })
                : t("billing:checkout.trial", { count: plan.trial_days })
          }
        />
      )}
      <CountryField value={country} onChange={setCountry} />
      {wanted.includes("demo") && <Alert type="warning" showIcon title={t("billing:demo.label")} />}
      <Space wrap>
        {wanted.map((provider) => (
          <Button
            key={provider}
            type="primary"
            size="large"
            icon={ICONS[provider]}
            data-testid={`checkout-${provider}`}
            loading={checkout.isPending && checkout.variables?.provider === provider}
            disabled={checkout.isPending}
            onClick={() =>
              checkout.mutate({ planId: plan.id, provider, once, coupon: coupon?.code, country })
            }
          >
            {t(`billing:checkout.pay.${provider}`)}
          </Button>
        ))}
      </Space>
      <Typography.Text type="secondary">
        <LockOutlined /> {wanted.includes("demo") ? t("billing:demo.explain") : t("billing:upgrade.secure")}
      </Typography.Text>
    </Space>
  );
}
