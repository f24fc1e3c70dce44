import { CrownOutlined, StopOutlined } from "@ant-design/icons";
import type { CustomerPlan } from "@parlons/contract";
import { usePrefetchQuery, useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Result, Skeleton, Space, Tag, Typography } from "antd";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { errorText } from "@/lib/api-error";
import { formatDate, isFreePlan, planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { hasValidProQuery, paymentsQuery, useCancelSubscription, validLatestQuery } from "../api/billing-api";
import { useShowError } from "../api/use-start-checkout";
import { PaymentsTitle } from "../components/payments-title";
import { PlanPrice } from "../components/plan-price";
import { canCancel, statusColor } from "../lib/billing-format";

const PaymentsCard = lazy(() =>
  import("../components/payments-card").then((m) => ({ default: m.PaymentsCard })),
);

/** `/billing`: the learner's plan, its status and dates, payment history, and cancellation. */
export function BillingPage() {
  const { t } = useTranslation();
  usePageTitle(t("billing:billing.title"));
  // the history's first page is asked for now, not once its chunk has arrived
  usePrefetchQuery(paymentsQuery(1));
  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
        {t("billing:billing.title")}
      </Typography.Title>
      <CurrentPlanCard />
      <Suspense
        fallback={
          <Card title={<PaymentsTitle />}>
            <Skeleton active paragraph={{ rows: 3 }} />
          </Card>
        }
      >
        <PaymentsCard />
      </Suspense>
    </Space>
  );
}

function CurrentPlanCard() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  const latest = useQuery(validLatestQuery);
  const pro = useQuery(hasValidProQuery);

  const title = (
    <span>
      <CrownOutlined /> {t("billing:billing.currentPlan")}
    </span>
  );
  if (latest.isPending)
    return (
      <Card title={title}>
        <Skeleton active paragraph={{ rows: 4 }} />
      </Card>
    );
  if (latest.isError)
    return (
      <Card title={title}>
        <Result
          status="warning"
          title={t("billing:billing.loadError")}
          subTitle={errorText(latest.error)}
          extra={<Button onClick={() => void latest.refetch()}>{t("billing:actions.retry")}</Button>}
        />
      </Card>
    );

  const customerPlan = latest.data;
  if (!customerPlan) {
    const free = isFreePlan(user?.plan);
    return (
      <Card title={title}>
        <Descriptions
          column={1}
          items={[
            {
              key: "plan",
              label: t("billing:fields.plan"),
              children: user?.plan ? planName(user.plan, lang) : t("app:plan.none"),
            },
            {
              key: "status",
              label: t("billing:fields.status"),
              children: (
                <Tag data-testid="billing-status" data-status="FREE">
                  {free ? t("billing:status.FREE") : t("billing:status.NONE")}
                </Tag>
              ),
            },
          ]}
        />
        <Typography.Paragraph type="secondary">{t("billing:billing.freeText")}</Typography.Paragraph>
        <ButtonLink type="primary" to={to(pagePath("pricing"))} data-testid="billing-see-plans">
          {t("billing:billing.seePlans")}
        </ButtonLink>
      </Card>
    );
  }

  return (
    <Card title={title}>
      <SubscriptionDetails customerPlan={customerPlan} premiumAccess={pro.data} />
    </Card>
  );
}

function SubscriptionDetails({
  customerPlan,
  premiumAccess,
}: {
  customerPlan: CustomerPlan;
  premiumAccess: boolean | undefined;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  const showError = useShowError();
  const cancel = useCancelSubscription(customerPlan.id, {
    onSuccess: () => void message.success(t("billing:cancel.done")),
  });
  const status = customerPlan.status;
  const accessUntil = formatDate(customerPlan.access_until, lang);
  const nextBilling = formatDate(customerPlan.next_billing_at, lang);
  const trialEnds = customerPlan.trial_ends_at;
  const inTrial = status === "ACTIVE" && !!trialEnds && Date.parse(trialEnds) > Date.now();

  const confirmCancel = () => {
    modal.confirm({
      title: t("billing:cancel.title"),
      content: nextBilling
        ? t("billing:cancel.explainUntil", { date: nextBilling })
        : t("billing:cancel.explain"),
      okText: t("billing:cancel.ok"),
      okButtonProps: { danger: true },
      cancelText: t("billing:cancel.keep"),
      onOk: () => cancel.mutateAsync().catch(showError),
    });
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Descriptions
        column={{ xs: 1, md: 2 }}
        items={[
          { key: "plan", label: t("billing:fields.plan"), children: planName(customerPlan.plan, lang) },
          {
            key: "price",
            label: t("billing:fields.price"),
            children: <PlanPrice plan={customerPlan.plan} />,
          },
          {
            key: "status",
            label: t("billing:fields.status"),
            children: (
              <Tag color={statusColor(status)} data-testid="billing-status" data-status={status}>
                {t(`billing:status.${status}`)}
              </Tag>
            ),
          },
          {
            key: "access",
            label: t("billing:fields.premiumAccess"),
            children:
              premiumAccess === undefined ? (
                <Skeleton.Input active size="small" />
              ) : premiumAccess ? (
                <Tag color="gold">{t("billing:billing.accessYes")}</Tag>
              ) : (
                <Tag>{t("billing:billing.accessNo")}</Tag>
              ),
          },
          {
            key: "started",
            label: t("billing:fields.started"),
            children: formatDate(customerPlan.started_at, lang) ?? t("billing:billing.noDate"),
          },
          status === "ACTIVE"
            ? {
                key: "next",
                label: t("billing:fields.nextBilling"),
                children: (
                  <span data-testid="billing-next">{nextBilling ?? t("billing:billing.noDate")}</span>
                ),
              }
            : {
                key: "until",
                label: t("billing:fields.accessUntil"),
                children: (
                  <span data-testid="billing-access-until">{accessUntil ?? t("billing:billing.noDate")}</span>
                ),
              },
          ...(inTrial
            ? [
                {
                  key: "trial",
                  label: t("billing:fields.trial"),
                  children: (
                    <span data-testid="billing-trial-end">
                      {t("billing:billing.trialUntil", { date: formatDate(trialEnds, lang) })}
                    </span>
                  ),
                },
              ]
            : []),
          {
            key: "provider",
            label: t("billing:fields.provider"),
            children: t(`billing:provider.${customerPlan.provider}`, { defaultValue: customerPlan.provider }),
          },
        ]}
      />
      {inTrial && (
        <Alert
          type="info"
          showIcon
          data-testid="billing-trial"
          title={t("billing:billing.trial", {
            count: customerPlan.trial_days ?? 0,
            date: formatDate(trialEnds, lang),
          })}
        />
      )}
      {status === "CANCELLED" && (
        <Alert
          type="info"
          showIcon
          data-testid="billing-cancelled-note"
          title={
            accessUntil && premiumAccess !== false
              ? t("billing:billing.cancelledUntil", { date: accessUntil })
              : t("billing:billing.cancelledEnded")
          }
        />
      )}
      {status === "SUSPENDED" && <Alert type="warning" showIcon title={t("billing:billing.suspended")} />}
      {canCancel(status) && (
        <Button
          danger
          icon={<StopOutlined />}
          onClick={confirmCancel}
          loading={cancel.isPending}
          data-testid="billing-cancel"
        >
          {t("billing:cancel.button")}
        </Button>
      )}
    </Space>
  );
}
