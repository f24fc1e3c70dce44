import type { Purchase } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Result, Skeleton, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { errorText } from "@/lib/api-error";
import { planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { refreshAfterPlanChange } from "../api/billing-api";
import { purchaseCaptureQuery, usePurchaseDemoDecision } from "../api/purchases-api";
import { useShowError } from "../api/use-start-checkout";
import { CheckoutFailed, CheckoutSwitch } from "../components/checkout-result";
import { DemoCheckoutCard } from "../components/demo-decision";
import { PlanPrice } from "../components/plan-price";
import "../billing.css";

/**
 * `/billing/purchase-payment`: buying a course once. `?demo=<id>` is the demo checkout (approve or
 * decline); `?purchase=<id>` is where PayPal sends the buyer back: the server captures the order.
 */
export function PurchasePaymentPage() {
  const { t } = useTranslation();
  usePageTitle(t("billing:purchase.title"));
  return (
    <CheckoutSwitch
      returnParam="purchase"
      back="courses"
      demo={(id) => <DemoPurchase key={id} id={id} />}
      returned={(id) => <PurchaseReturn key={id} id={id} />}
    />
  );
}

/** The course is the learner's: open it, or read the receipt. */
function PurchaseDone({ purchase }: { purchase: Purchase }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const course = purchase.course_ids[0];
  return (
    <Result
      status="success"
      data-testid="purchase-success"
      title={
        <h1 className="result-title">
          {t("billing:purchase.successTitle", {
            plan: planName({ name: purchase.plan_name, name_fr: purchase.plan_name_fr }, lang),
          })}
        </h1>
      }
      subTitle={t("billing:purchase.successText")}
      extra={
        <Space wrap>
          {course && (
            <ButtonLink
              type="primary"
              to={to(pagePath("course", { id: course }))}
              data-testid="purchase-open-course"
            >
              {t("billing:purchase.openCourse")}
            </ButtonLink>
          )}
          {purchase.receipt && (
            <ButtonLink
              to={to(pagePath("receipt", { id: purchase.receipt.id }))}
              data-testid="purchase-receipt"
            >
              {t("billing:purchase.receipt", { number: purchase.receipt.number })}
            </ButtonLink>
          )}
        </Space>
      }
    />
  );
}

function PurchaseFailed({ purchase }: { purchase: Purchase }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <CheckoutFailed
      reason={t(purchase.status === "CANCELLED" ? "billing:result.declined" : "billing:purchase.closed")}
      extra={
        <ButtonLink to={to(pagePath("upgradePayment", {}, { plan: purchase.plan_id }))}>
          {t("billing:result.chooseAgain")}
        </ButtonLink>
      }
    />
  );
}

/** "Demo payment: no money moves": the learner plays the buyer. */
function DemoPurchase({ id }: { id: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const showError = useShowError();
  const current = useQuery(purchaseCaptureQuery(id));
  const [decided, setDecided] = useState<Purchase | null>(null);
  const decide = usePurchaseDemoDecision(id, { onSuccess: setDecided, onError: showError });
  const purchase = decided ?? current.data;

  if (current.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (current.isError || !purchase)
    return <CheckoutFailed reason={errorText(current.error)} onRetry={() => void current.refetch()} />;
  if (purchase.status === "PAID") return <PurchaseDone purchase={purchase} />;
  if (purchase.status !== "PENDING") return <PurchaseFailed purchase={purchase} />;

  return (
    <DemoCheckoutCard
      title={t("billing:purchase.title")}
      plan={planName({ name: purchase.plan_name, name_fr: purchase.plan_name_fr }, lang)}
      price={<PlanPrice plan={{ amount: purchase.amount, currency: purchase.currency, interval: "once" }} />}
      pending={decide.isPending}
      deciding={decide.variables}
      onDecide={(decision) => decide.mutate(decision)}
    />
  );
}

const MAX_CHECKS = 8;
const CHECK_EVERY_MS = 2_000;

/** Back from PayPal: the server captures the approved order; PayPal may take a moment to say so. */
function PurchaseReturn({ id }: { id: string }) {
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);
  const status = useQuery({
    ...purchaseCaptureQuery(id),
    refetchInterval: (query) =>
      query.state.data?.status === "PENDING" && query.state.dataUpdateCount < MAX_CHECKS
        ? CHECK_EVERY_MS
        : false,
  });
  const purchase = status.data;
  useEffect(() => {
    if (purchase?.status === "PAID") void refreshAfterPlanChange().then(() => setReady(true));
  }, [purchase?.status]);

  if (status.isPending || (purchase?.status === "PAID" && !ready))
    return (
      <Card aria-live="polite">
        <Typography.Title level={1} style={{ marginTop: 0 }}>
          {t("billing:return.title")}
        </Typography.Title>
        <Typography.Paragraph type="secondary" data-testid="checkout-progress">
          {t("billing:return.wait")}
        </Typography.Paragraph>
      </Card>
    );
  if (status.isError || !purchase)
    return (
      <CheckoutFailed
        reason={status.isError ? errorText(status.error) : t("billing:result.unknown")}
        onRetry={() => void status.refetch()}
        retrying={status.isFetching}
      />
    );
  if (purchase.status === "PAID") return <PurchaseDone purchase={purchase} />;
  if (purchase.status === "PENDING")
    return (
      <CheckoutFailed
        reason={t("billing:purchase.stillPending")}
        onRetry={() => void status.refetch()}
        retrying={status.isFetching}
      />
    );
  return <PurchaseFailed purchase={purchase} />;
}
