import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { Plan } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Flex, Result, Space, Table, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EditorDrawer } from "@/components/editor-drawer";
import { errorText } from "@/lib/api-error";
import { formatMoney, planName } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { allPlansQuery, useDeletePlan } from "../api/plans-api";
import { PlanForm, planErrorText } from "../components/plan-form";

type Editing = { plan: Plan | null } | null;

/** `/plans` (staff, plans.manage): every plan, create/edit in a drawer, delete or deactivate. */
export function PlansPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  usePageTitle(t("billing:plans.title"));
  const plans = useQuery(allPlansQuery);
  const remove = useDeletePlan();
  const [editing, setEditing] = useState<Editing>(null);

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
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
            {t("billing:plans.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("billing:plans.subtitle")}</Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ plan: null })}
          data-testid="plan-create"
        >
          {t("billing:plans.create")}
        </Button>
      </Flex>
      <Card>
        {plans.isError ? (
          <Result
            status="warning"
            title={t("billing:plans.loadError")}
            subTitle={errorText(plans.error)}
            extra={<Button onClick={() => void plans.refetch()}>{t("billing:actions.retry")}</Button>}
          />
        ) : (
          <Table<Plan>
            rowKey="id"
            data-testid="plans-table"
            loading={plans.isPending}
            dataSource={plans.data ?? []}
            pagination={false}
            scroll={{ x: true }}
            locale={{ emptyText: t("billing:plans.empty") }}
            columns={[
              {
                key: "name",
                title: t("billing:plans.columns.name"),
                render: (_: unknown, plan: Plan) => (
                  <Space size={4} wrap>
                    <strong>{planName(plan, lang)}</strong>
                    <Typography.Text type="secondary">
                      ({lang === "fr" ? plan.name : plan.name_fr})
                    </Typography.Text>
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
              {
                key: "actions",
                title: t("billing:plans.columns.actions"),
                render: (_: unknown, plan: Plan) => (
                  <Space>
                    <Button
                      icon={<EditOutlined />}
                      onClick={() => setEditing({ plan })}
                      data-testid="plan-edit"
                      aria-label={t("billing:plans.edit", { plan: planName(plan, lang) })}
                    />
                    <Tooltip title={plan.is_default ? t("billing:plans.errors.defaultPlan") : undefined}>
                      <Button
                        danger
                        icon={<DeleteOutlined />}
                        disabled={plan.is_default}
                        onClick={() => confirmDelete(plan)}
                        data-testid="plan-delete"
                        aria-label={t("billing:plans.delete", { plan: planName(plan, lang) })}
                      />
                    </Tooltip>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      <EditorDrawer
        title={
          editing?.plan
            ? t("billing:plans.editTitle", { plan: planName(editing.plan, lang) })
            : t("billing:plans.create")
        }
        open={editing !== null}
        onClose={() => setEditing(null)}
        size={560}
      >
        {editing && (
          <PlanForm
            key={editing.plan?.id ?? "new"}
            plan={editing.plan}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              void message.success(t("billing:plans.saved"));
              setEditing(null);
            }}
          />
        )}
      </EditorDrawer>
    </Space>
  );
}
