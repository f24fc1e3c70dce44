import type { Coupon, CreateCouponBody, Plan } from "@parlons/contract";
import { Form, Input, InputNumber, Radio, Select, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { planName } from "@/lib/format";
import { useLang } from "@/lib/use-locale";

interface Values {
  code: string;
  kind: "percent" | "amount";
  value: number;
  currency: string;
  plan_ids: string[];
  duration: "once" | "forever";
  ends_on: string;
  max_uses: number | null;
  active: boolean;
}

/** The form's values of a coupon (a new one: 10 % off every offer, no end, no limit). */
export function couponValues(coupon: Coupon | null): Values {
  return {
    code: coupon?.code ?? "",
    kind: coupon?.amount_off != null ? "amount" : "percent",
    value: coupon?.amount_off != null ? coupon.amount_off / 100 : (coupon?.percent_off ?? 10),
    currency: coupon?.currency ?? "EUR",
    plan_ids: coupon?.plan_ids ?? [],
    duration: coupon?.duration ?? "once",
    ends_on: coupon?.ends_at?.slice(0, 10) ?? "",
    max_uses: coupon?.max_uses ?? null,
    active: coupon?.active ?? true,
  };
}

/** The body the API takes from the form's values (an end date ends at the end of that day, UTC). */
export function couponBody(v: Values): CreateCouponBody {
  const amount = v.kind === "amount";
  return {
    code: v.code,
    percent_off: amount ? null : Math.round(v.value),
    amount_off: amount ? Math.round(v.value * 100) : null,
    currency: amount ? v.currency : null,
    plan_ids: v.plan_ids,
    duration: v.duration,
    ends_at: v.ends_on ? `${v.ends_on}T23:59:59Z` : null,
    max_uses: v.max_uses ?? null,
    active: v.active,
  };
}

/** A coupon's fields: code, percentage or amount off, offers, first or every payment, end date, uses at most, active. */
export function CouponForm({
  form,
  plans,
}: {
  form: ReturnType<typeof Form.useForm<Values>>[0];
  plans: Plan[];
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const kind = Form.useWatch("kind", form);
  return (
    <Form form={form} layout="vertical" requiredMark={false}>
      <Form.Item
        name="code"
        label={t("billing:coupons.code")}
        rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{3,40}$/, message: t("billing:coupons.codeRule") }]}
      >
        <Input maxLength={40} data-testid="coupon-code" />
      </Form.Item>
      <Form.Item name="kind" label={t("billing:coupons.kind")}>
        <Radio.Group
          options={[
            { value: "percent", label: t("billing:coupons.percent") },
            { value: "amount", label: t("billing:coupons.amount") },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="value"
        label={t(kind === "amount" ? "billing:coupons.amountValue" : "billing:coupons.percentValue")}
        rules={[{ required: true }]}
      >
        <InputNumber
          min={kind === "amount" ? 0.01 : 1}
          max={kind === "amount" ? 1_000_000 : 100}
          step={kind === "amount" ? 0.01 : 1}
          data-testid="coupon-value"
        />
      </Form.Item>
      {kind === "amount" && (
        <Form.Item
          name="currency"
          label={t("billing:coupons.currency")}
          rules={[{ required: true, pattern: /^[A-Z]{3}$/ }]}
        >
          <Input maxLength={3} style={{ width: 100 }} />
        </Form.Item>
      )}
      <Form.Item name="plan_ids" label={t("billing:coupons.offers")} extra={t("billing:coupons.offersHelp")}>
        <Select
          mode="multiple"
          allowClear
          options={plans.filter((p) => p.premium).map((p) => ({ value: p.id, label: planName(p, lang) }))}
        />
      </Form.Item>
      <Form.Item
        name="duration"
        label={t("billing:coupons.duration")}
        extra={t("billing:coupons.durationHelp")}
      >
        <Radio.Group
          options={[
            { value: "once", label: t("billing:coupons.durationOnce") },
            { value: "forever", label: t("billing:coupons.durationForever") },
          ]}
        />
      </Form.Item>
      <Form.Item name="ends_on" label={t("billing:coupons.endsOn")}>
        <Input type="date" style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="max_uses"
        label={t("billing:coupons.maxUses")}
        extra={t("billing:coupons.maxUsesHelp")}
      >
        <InputNumber min={1} max={1_000_000} />
      </Form.Item>
      <Form.Item name="active" label={t("billing:coupons.active")} valuePropName="checked">
        <Switch />
      </Form.Item>
    </Form>
  );
}
