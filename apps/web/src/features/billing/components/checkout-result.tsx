import { Button, Result, Space } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";

/** The checkout went through: the plan is now premium, every lesson is open. */
export function CheckoutSuccess({ planName }: { planName: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Result
      status="success"
      data-testid="checkout-success"
      title={<h1 className="result-title">{t("billing:result.successTitle", { plan: planName })}</h1>}
      subTitle={t("billing:result.successText")}
      extra={
        <Space wrap>
          <ButtonLink type="primary" to={to(pagePath("courses"))}>
            {t("billing:result.toCourses")}
          </ButtonLink>
          <ButtonLink to={to(pagePath("billing"))}>{t("billing:result.toBilling")}</ButtonLink>
        </Space>
      }
    />
  );
}

/**
 * The learner approved a second subscription while already holding one: the server cancelled it
 * at once and marked its payment for refund. Not a failure, and no "try again".
 */
export function CheckoutDuplicate() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Result
      status="info"
      data-testid="checkout-duplicate"
      title={<h1 className="result-title">{t("billing:result.duplicateTitle")}</h1>}
      subTitle={t("billing:result.duplicateText")}
      extra={
        <ButtonLink type="primary" to={to(pagePath("billing"))}>
          {t("billing:result.toBilling")}
        </ButtonLink>
      }
    />
  );
}

/** A clear failure with a way to try again. */
export function CheckoutFailed({
  reason,
  onRetry,
  retrying,
  extra,
}: {
  reason: string;
  onRetry?: () => void;
  retrying?: boolean;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Result
      status="error"
      data-testid="checkout-failed"
      title={<h1 className="result-title">{t("billing:result.failedTitle")}</h1>}
      subTitle={reason}
      extra={
        <Space wrap>
          {onRetry && (
            <Button type="primary" onClick={onRetry} loading={retrying} data-testid="checkout-retry">
              {t("billing:result.retry")}
            </Button>
          )}
          {extra}
          <ButtonLink to={to(pagePath("pricing"))}>{t("billing:result.toPricing")}</ButtonLink>
        </Space>
      }
    />
  );
}

/** A checkout page reached without a payment to show: back to the pricing or the courses. */
function CheckoutMissing({ back }: { back: "pricing" | "courses" }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Result
      status="warning"
      title={<h1 className="result-title">{t("billing:checkout.missingTitle")}</h1>}
      subTitle={t("billing:checkout.missingText")}
      extra={
        <ButtonLink type="primary" to={to(pagePath(back))}>
          {t(back === "pricing" ? "billing:result.toPricing" : "billing:result.toCourses")}
        </ButtonLink>
      }
    />
  );
}

/**
 * A checkout page's three states: `?demo=<id>` is the demo checkout, `?<returnParam>=<id>` is where
 * the provider sends the buyer back, and neither is a page reached without a payment to show.
 */
export function CheckoutSwitch({
  returnParam,
  back,
  demo,
  returned,
}: {
  returnParam: string;
  back: "pricing" | "courses";
  demo: (id: string) => ReactNode;
  returned: (id: string) => ReactNode;
}) {
  const [params] = useSearchParams();
  const demoId = params.get("demo");
  const returnedId = params.get(returnParam);
  return (
    <div className="checkout-page">
      {demoId ? demo(demoId) : returnedId ? returned(returnedId) : <CheckoutMissing back={back} />}
    </div>
  );
}
