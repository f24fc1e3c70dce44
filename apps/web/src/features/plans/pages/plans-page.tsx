import type { Plan } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { AdminListPage } from "@/components/admin-list-page";
import { formatMoney, planName } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { allPlansQuery, useDeletePlan } from "../api/plans-api";
import { PlanForm, planErrorText } from "../components/plan-form";

/** `/plans` (staff, plans.manage): every plan, create/edit in a drawer, delete or deactivate. */
export function PlansPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  usePageTitle(t("billing:plans.title"));
  const plans = useQuery(allPlansQuery);
  const remove = useDeletePlan();

  const confirmDelete = (plan: Plan) => {
    modal.confirm({
      title: t("billing:plans.deleteTitle", { plan: planName(plan, lang) }),
      content: t("billing:plans.deleteText"),
      okText: t("billing:plans.deleteOk"),
      okButtonProps: { danger: true },
      cancelText: t("common:actions.cancel"),
      onOk: () =>
        remove
          .mutateAsync(plan.id)
          .then((result) => {
            if (result.deleted) void message.success(t("billing:plans.deleted"));
            else void message.warning(t("billing:plans.deactivated"), 6);
          })
          .catch((error: unknown) => void message.error(planErrorText(error, plan.is_default, t))),
    });
  };

  return (
    <AdminListPage<Plan>
      title={t("billing:plans.title")}
      subtitle={t("billing:plans.subtitle")}
      create={{ label: t("billing:plans.create"), testId: "plan-create" }}
      list={plans}
      loadError={t("billing:plans.loadError")}
      retry={t("billing:actions.retry")}
      rows={plans.data ?? []}
      rowKey="id"
      tableTestId="plans-table"
      empty={t("billing:plans.empty")}
      pages={false}
      columns={[
        {
          key: "name",
          title: t("billing:plans.columns.name"),
          render: (_: unknown, plan: Plan) => (
            <Space size={4} wrap>
              <strong>{planName(plan, lang)}</strong>
              <Typography.Text type="secondary">({lang === "fr" ? plan.name : plan.name_fr})</Typography.Text>
              {plan.is_default && <Tag color="blue">{t("billing:plans.default")}</Tag>}
            </Space>
          ),
        },
        {
          key: "price",
          title: t("billing:plans.columns.price"),
          render: (_: unknown, plan: Plan) =>
            plan.amount > 0 ? formatMoney(plan.amount, plan.currency, lang) : t("billing:price.free"),
        },
        {
          key: "interval",
          responsive: WIDE_ONLY,
          title: t("billing:plans.columns.interval"),
          render: (_: unknown, plan: Plan) => t(`billing:plans.intervals.${plan.interval}`),
        },
        {
          key: "scope",
          responsive: WIDE_ONLY,
          title: t("billing:plans.columns.scope"),
          render: (_: unknown, plan: Plan) =>
            plan.scope === "all"
              ? t("billing:plans.form.scopeAll")
              : t("billing:plans.courseCount", { count: plan.course_ids.length }),
        },
        {
          key: "active",
          title: t("billing:plans.columns.status"),
          render: (_: unknown, plan: Plan) => (
            <Space size={4} wrap>
              <Tag color={plan.active ? "green" : "default"}>
                {plan.active ? t("billing:plans.active") : t("billing:plans.inactive")}
              </Tag>
              {plan.premium && <Tag color="gold">{t("app:plan.premium")}</Tag>}
            </Space>
          ),
        },
        { key: "position", title: t("billing:plans.columns.position"), dataIndex: "position" },
      ]}
      actionsTitle={t("billing:plans.columns.actions")}
      edit={{ testId: "plan-edit", label: (plan) => t("billing:plans.edit", { plan: planName(plan, lang) }) }}
      remove={{
        testId: "plan-delete",
        label: (plan) => t("billing:plans.delete", { plan: planName(plan, lang) }),
        onClick: confirmDelete,
        blocked: (plan) => (plan.is_default ? t("billing:plans.errors.defaultPlan") : undefined),
      }}
      editor={{
        title: (plan) =>
          plan ? t("billing:plans.editTitle", { plan: planName(plan, lang) }) : t("billing:plans.create"),
        size: 560,
        form: (plan, close) => (
          <PlanForm
            key={plan?.id ?? "new"}
            plan={plan}
            onCancel={close}
            onSaved={() => {
              void message.success(t("billing:plans.saved"));
              close();
            }}
          />
        ),
      }}
    />
  );
}
