import type { CustomerPlan } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card, Skeleton, Space, Spin, Steps, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { ApiError, errorText } from "@/lib/api-error";
import { planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { billingKeys, refreshAfterPlanChange, updateStatus } from "../api/billing-api";
import { useShowError, useStartCheckout } from "../api/use-start-checkout";
import {
  CheckoutDuplicate,
  CheckoutFailed,
  CheckoutSuccess,
  CheckoutSwitch,
} from "../components/checkout-result";
import { DemoCheckoutCard } from "../components/demo-decision";
import { PlanPrice } from "../components/plan-price";
import "../billing.css";
import { useDemoDecision } from "../api/billing-api";

/**
 * `/billing/subscription-payment`: `?demo=<id>` is the demo checkout (approve or decline);
 * `?customer_plan=<id>` is where PayPal sends the learner back: we ask the server to confirm.
 */
export function SubscriptionPaymentPage() {
  const { t } = useTranslation();
  usePageTitle(t("billing:checkout.title"));
  return (
    <CheckoutSwitch
      returnParam="customer_plan"
      back="pricing"
      demo={(id) => <DemoCheckout key={id} id={id} />}
      returned={(id) => <ProviderReturn key={id} id={id} />}
    />
  );
}

type Outcome =
  | { kind: "success"; customerPlan: CustomerPlan }
  | { kind: "duplicate" }
  | { kind: "failed"; reason: string };

/** "Demo payment: no money moves": the learner plays the buyer. */
function DemoCheckout({ id }: { id: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const showError = useShowError();
  const restart = useStartCheckout();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const current = useQuery({
    queryKey: billingKeys.customerPlan(id),
    queryFn: ({ signal }) => updateStatus(id, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const decide = useDemoDecision(id, {
    onSuccess: (customerPlan, decision) => {
      if (decision === "approve" && customerPlan?.status === "ACTIVE") {
        setOutcome({ kind: "success", customerPlan });
      } else if (customerPlan?.duplicate_of) {
        setOutcome({ kind: "duplicate" });
      } else {
        setOutcome({
          kind: "failed",
          reason: decision === "decline" ? t("billing:result.declined") : t("billing:result.notActive"),
        });
      }
    },
    onError: showError,
  });

  if (current.isPending) return <CheckoutSkeleton />;
  if (current.isError || !current.data) {
    return <CheckoutFailed reason={errorText(current.error)} onRetry={() => void current.refetch()} />;
  }
  const customerPlan = current.data;
  const name = planName(customerPlan.plan, lang);
  const retry = () => restart.mutate({ planId: customerPlan.plan_id, provider: "demo" });

  if (outcome?.kind === "success" || (!outcome && customerPlan.status === "ACTIVE")) {
    return <CheckoutSuccess planName={name} />;
  }
  if (outcome?.kind === "duplicate" || customerPlan.duplicate_of) return <CheckoutDuplicate />;
  if (outcome?.kind === "failed") {
    return <CheckoutFailed reason={outcome.reason} onRetry={retry} retrying={restart.isPending} />;
  }
  if (customerPlan.status !== "APPROVAL_PENDING") {
    return (
      <CheckoutFailed reason={t("billing:result.notPending")} onRetry={retry} retrying={restart.isPending} />
    );
  }

  return (
    <DemoCheckoutCard
      title={t("billing:checkout.title")}
      plan={name}
      price={<PlanPrice plan={customerPlan.plan} />}
      pending={decide.isPending}
      deciding={decide.variables}
      onDecide={(decision) => decide.mutate(decision)}
    />
  );
}

const MAX_CHECKS = 8;
const CHECK_EVERY_MS = 2_000;

/** Back from PayPal: the server re-reads the subscription; approval may take a few seconds to show. */
function ProviderReturn({ id }: { id: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const refreshed = useRef(false);
  const [ready, setReady] = useState(false);
  const client = useQueryClient();
  const status = useQuery({
    queryKey: billingKeys.customerPlan(id),
    queryFn: ({ signal }) => updateStatus(id, signal),
    retry: false,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.status === "APPROVAL_PENDING" && query.state.dataUpdateCount < MAX_CHECKS
        ? CHECK_EVERY_MS
        : false,
  });
  const customerPlan = status.data;
  const checks = client.getQueryState(billingKeys.customerPlan(id))?.dataUpdateCount ?? 0;

  useEffect(() => {
    if (customerPlan?.status !== "ACTIVE" || refreshed.current) return;
    refreshed.current = true;
    void refreshAfterPlanChange().then(() => setReady(true));
  }, [customerPlan?.status]);

  const checking =
    status.isPending ||
    (customerPlan?.status === "APPROVAL_PENDING" && checks < MAX_CHECKS) ||
    (customerPlan?.status === "ACTIVE" && !ready);

  if (checking) {
    return (
      <Card>
        <Space orientation="vertical" size="large" style={{ width: "100%" }} aria-live="polite">
          <Typography.Title level={1} style={{ margin: 0 }}>
            {t("billing:return.title")}
          </Typography.Title>
          <Steps
            current={customerPlan?.status === "ACTIVE" ? 2 : 1}
            items={[
              { title: t("billing:return.stepApproved") },
              { title: t("billing:return.stepConfirming"), icon: <Spin size="small" /> },
              { title: t("billing:return.stepDone") },
            ]}
          />
          <Typography.Paragraph type="secondary" data-testid="checkout-progress">
            {t("billing:return.wait")}
          </Typography.Paragraph>
        </Space>
      </Card>
    );
  }
  if (status.isError || !customerPlan) {
    return (
      <CheckoutFailed
        reason={
          !status.isError || (status.error instanceof ApiError && status.error.status === 404)
            ? t("billing:result.unknown")
            : errorText(status.error)
        }
        onRetry={() => void status.refetch()}
        retrying={status.isFetching}
      />
    );
  }
  if (customerPlan.status === "ACTIVE")
    return <CheckoutSuccess planName={planName(customerPlan.plan, lang)} />;
  if (customerPlan.duplicate_of) return <CheckoutDuplicate />;
  if (customerPlan.status === "APPROVAL_PENDING") {
    return (
      <CheckoutFailed
        reason={t("billing:result.stillPending")}
        onRetry={() => void status.refetch()}
        retrying={status.isFetching}
      />
    );
  }
  return (
    <CheckoutFailed
      reason={t("billing:result.notActive")}
      extra={
        <ButtonLink to={to(pagePath("upgradePayment", {}, { plan: customerPlan.plan_id }))}>
          {t("billing:result.chooseAgain")}
        </ButtonLink>
      }
    />
  );
}

function CheckoutSkeleton() {
  return (
    <Card>
      <Skeleton active paragraph={{ rows: 6 }} />
    </Card>
  );
}
