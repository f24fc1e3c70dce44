import type { CouponQuote } from "@parlons/contract";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Input, Space } from "antd";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { formatMoney } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { quoteCoupon } from "../api/purchases-api";

/**
 * A discount code entered at checkout: checked with the server (`/v1/coupons/quote`), which says
 * the price with it; the code applied is what the checkout sends. Removing it goes back to the price.
 * On a subscription it says whether the discount is for the first payment only or for every one.
 */
export function CouponField({
  planId,
  applied,
  onApplied,
  recurring = false,
}: {
  planId: string;
  applied: CouponQuote | null;
  onApplied: (quote: CouponQuote | null) => void;
  /** A subscription: say whether the price holds for the first payment or every one. */
  recurring?: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const id = useId();
  const [code, setCode] = useState("");
  const quote = useMutation({
    mutationFn: (value: string) => quoteCoupon(value, planId),
    onSuccess: onApplied,
  });
  if (applied)
    return (
      <Alert
        type="success"
        showIcon
        data-testid="coupon-applied"
        title={t("billing:coupon.applied", {
          code: applied.code,
          discount: formatMoney(applied.discount, applied.currency, lang),
          amount: formatMoney(applied.amount, applied.currency, lang),
        })}
        {...(recurring && {
          description: t(
            applied.duration === "forever" ? "billing:coupon.everyPayment" : "billing:coupon.firstPayment",
            { price: formatMoney(applied.list_amount, applied.currency, lang) },
          ),
        })}
        action={
          <Button size="small" onClick={() => onApplied(null)}>
            {t("billing:coupon.remove")}
          </Button>
        }
      />
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (code.trim()) quote.mutate(code.trim());
      }}
    >
      <label htmlFor={id}>{t("billing:coupon.label")}</label>
      <Space.Compact style={{ width: "100%", maxWidth: 360, display: "flex" }}>
        <Input
          id={id}
          value={code}
          maxLength={40}
          autoComplete="off"
          data-testid="coupon-input"
          onChange={(e) => setCode(e.target.value)}
        />
        <Button htmlType="submit" loading={quote.isPending} data-testid="coupon-apply">
          {t("billing:coupon.apply")}
        </Button>
      </Space.Compact>
      {quote.isError && (
        <div role="alert" className="ant-form-item-explain-error" data-testid="coupon-error">
          {errorText(quote.error)}
        </div>
      )}
    </form>
  );
}
