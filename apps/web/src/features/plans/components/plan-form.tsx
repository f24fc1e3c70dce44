import { type Plan, TRIAL_DAYS_MAX } from "@parlons/contract";
import { Alert, Col, Form, InputNumber, Row, Select, Switch } from "antd";
import { useTranslation } from "react-i18next";
import type { EditorFormProps } from "@/components/admin-list-page";
import { FormFooter } from "@/components/form-footer";
import { LocaleTabs, longText, titleText, useLocaleTab } from "@/components/locale-tabs";
import { useEditorSave } from "@/components/use-editor-save";
import { ApiError, errorText } from "@/lib/api-error";
import { decimalSeparator } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { useSavePlan } from "../api/plans-api";
import { EMPTY_PLAN, type PlanFormValues, toFormValues, toPlanBody } from "../lib/plan-form-values";
import { PlanCoursesField } from "./plan-courses-field";

const CURRENCIES = ["EUR", "USD", "GBP", "CHF", "CAD"];

/** Create or edit a plan; the amount is typed as a decimal and sent as integer cents. */
export function PlanForm({ plan, onSaved, onCancel }: EditorFormProps<Plan, "plan">) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<PlanFormValues>();
  const isDefault = plan?.is_default ?? false;
  const amount = Form.useWatch("amount", form);
  const interval = Form.useWatch("interval", form);
  const tabs = useLocaleTab({ name: "en" });
  const { failure, submit, pending } = useEditorSave({
    form,
    fieldNames: Object.keys(EMPTY_PLAN),
    save: useSavePlan(),
    onSaved,
    textOf: (error) => planErrorText(error, isDefault, t),
  });

  return (
    <Form<PlanFormValues>
      form={form}
      layout="vertical"
      name="plan-form"
      data-testid="plan-form"
      initialValues={plan ? toFormValues(plan) : EMPTY_PLAN}
      onFinish={(values) => submit({ id: plan?.id ?? null, body: toPlanBody(values) })}
      onFinishFailed={tabs.showFirstError}
      requiredMark="optional"
    >
      {isDefault && (
        <Alert type="info" showIcon title={t("billing:plans.defaultNote")} style={{ marginBottom: 16 }} />
      )}
      <Row gutter={12}>
        <Col xs={24}>
          <LocaleTabs
            tabs={tabs}
            texts={[
              // the English name is the plan's `name` (spec §3)
              {
                ...titleText("billing:plans.form.name", 120, "name"),
                field: (l) => (l === "en" ? "name" : `name_${l}`),
              },
              longText("description", "billing:plans.form.description", 2000, 3),
              {
                ...longText("features", "billing:plans.form.features"),
                extra: t("billing:plans.form.featuresHint"),
              },
            ]}
          />
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item
            name="amount"
            label={t("billing:plans.form.amount")}
            extra={t("billing:plans.form.amountHint")}
            rules={[{ required: true, message: t("billing:plans.form.required") }]}
          >
            <InputNumber
              min={0}
              max={1_000_000}
              step={0.5}
              precision={2}
              decimalSeparator={decimalSeparator(lang)}
              style={{ width: "100%" }}
              disabled={isDefault}
            />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item
            name="currency"
            label={t("billing:plans.form.currency")}
            rules={[{ required: true, message: t("billing:plans.form.required") }]}
          >
            <Select options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item
            name="interval"
            label={t("billing:plans.form.interval")}
            dependencies={["amount"]}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  value === "once" && Number(getFieldValue("amount")) > 0
                    ? Promise.reject(new Error(t("billing:plans.form.paidRecurs")))
                    : Promise.resolve(),
              }),
            ]}
          >
            <Select
              options={(["month", "year", "once"] as const).map((i) => ({
                value: i,
                label: t(`billing:plans.intervals.${i}`),
                disabled: i === "once" && Number(amount) > 0,
              }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="trial_days"
            label={t("billing:plans.form.trialDays")}
            extra={t("billing:plans.form.trialDaysHint")}
          >
            <InputNumber
              min={0}
              max={TRIAL_DAYS_MAX}
              precision={0}
              style={{ width: "100%" }}
              disabled={isDefault || !(Number(amount) > 0) || interval === "once"}
            />
          </Form.Item>
        </Col>
        <PlanCoursesField />
        <Col xs={12}>
          <Form.Item name="position" label={t("billing:plans.form.position")}>
            <InputNumber min={0} max={10_000} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item name="active" label={t("billing:plans.form.active")} valuePropName="checked">
            <Switch disabled={isDefault} />
          </Form.Item>
        </Col>
      </Row>
      <FormFooter error={failure} pending={pending} onCancel={onCancel} testId="plan-form" />
    </Form>
  );
}

/** The plan rules of the API, said plainly: default plan (409), provider down (502), invalid fields (422). */
export function planErrorText(error: unknown, isDefault: boolean, t: (key: string) => string): string {
  if (error instanceof ApiError) {
    if (error.status === 409)
      return isDefault ? t("billing:plans.errors.defaultPlan") : t("billing:plans.errors.conflict");
    if (error.status === 502 || error.code === "PROVIDER_ERROR") return t("billing:plans.errors.provider");
    if (error.status === 422 || error.status === 400) return t("billing:plans.errors.invalid");
  }
  return errorText(error);
}
