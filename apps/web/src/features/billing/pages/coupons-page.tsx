import type { Coupon } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Form,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { useFormat } from "@/lib/format";
import { tablePages, WIDE_ONLY } from "@/lib/table";
import { usePageTitle } from "@/lib/use-page-title";
import { couponsQuery, useDeleteCoupon, useSaveCoupon } from "../api/coupons-api";
import { activePlansQuery } from "../api/plan-queries";
import { CouponForm, couponBody, couponValues } from "../components/coupon-form";

const PAGE_SIZE = 20;

/** `/coupons` (plans.manage): discount codes; create, change, delete (a used one is deactivated). */
export function CouponsPage() {
  const { t } = useTranslation("billing");
  const { message } = App.useApp();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Coupon | "new" | null>(null);
  const [form] = Form.useForm<ReturnType<typeof couponValues>>();
  usePageTitle(t("coupons.title"));
  const list = useQuery(couponsQuery(page, PAGE_SIZE));
  const plans = useQuery(activePlansQuery);
  const save = useSaveCoupon({
    onSuccess: () => {
      void message.success(t("coupons.saved"));
      setEditing(null);
    },
    onError: (error) => void message.error(errorText(error)),
  });
  const remove = useDeleteCoupon({
    onSuccess: ({ deleted }) => void message.success(t(deleted ? "coupons.deleted" : "coupons.deactivated")),
    onError: (error) => void message.error(errorText(error)),
  });
  const open = (coupon: Coupon | "new") => {
    form.setFieldsValue(couponValues(coupon === "new" ? null : coupon));
    setEditing(coupon);
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title">
          {t("coupons.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("coupons.subtitle")}</Typography.Text>
      </div>
      <Card
        extra={
          <Button type="primary" onClick={() => open("new")} data-testid="coupon-new">
            {t("coupons.new")}
          </Button>
        }
      >
        {list.isError ? (
          <LoadError query={list} compact />
        ) : (
          <Table<Coupon>
            rowKey="id"
            data-testid="coupons-table"
            scroll={{ x: true }}
            loading={list.isFetching}
            dataSource={list.data?.coupons ?? []}
            locale={{ emptyText: t("coupons.empty") }}
            pagination={tablePages(page, PAGE_SIZE, list.data?.pagination.total, setPage)}
            columns={[
              {
                title: t("coupons.code"),
                dataIndex: "code",
                render: (code: string) => <Typography.Text code>{code}</Typography.Text>,
              },
              {
                title: t("coupons.discount"),
                key: "discount",
                render: (_: unknown, c) =>
                  c.percent_off != null
                    ? `−${c.percent_off} %`
                    : `−${format.money(c.amount_off ?? 0, c.currency ?? "EUR")}`,
              },
              {
                title: t("coupons.offers"),
                key: "offers",
                responsive: WIDE_ONLY,
                render: (_: unknown, c) =>
                  c.plan_ids.length
                    ? t("coupons.offerCount", { count: c.plan_ids.length })
                    : t("coupons.everyOffer"),
              },
              {
                title: t("coupons.uses"),
                key: "uses",
                render: (_: unknown, c) => (c.max_uses ? `${c.uses} / ${c.max_uses}` : String(c.uses)),
              },
              {
                title: t("coupons.endsOn"),
                dataIndex: "ends_at",
                responsive: WIDE_ONLY,
                render: (value: string | null) => (value ? format.date(value) : "—"),
              },
              {
                title: t("coupons.active"),
                dataIndex: "active",
                render: (active: boolean) => (
                  <Tag color={active ? "green" : "default"}>{t(active ? "coupons.on" : "coupons.off")}</Tag>
                ),
              },
              {
                key: "actions",
                title: <span className="visually-hidden">{t("sales.actions")}</span>,
                render: (_: unknown, c) => (
                  <Space size="small">
                    <Button size="small" onClick={() => open(c)}>
                      {t("coupons.edit")}
                    </Button>
                    <Popconfirm
                      title={t("coupons.confirmDelete", { code: c.code })}
                      onConfirm={() => remove.mutate(c.id)}
                    >
                      <Button size="small" danger>
                        {t("coupons.delete")}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      <Modal
        open={editing !== null}
        title={t(editing === "new" ? "coupons.new" : "coupons.edit")}
        okText={t("coupons.save")}
        okButtonProps={{ loading: save.isPending, "data-testid": "coupon-save" } as ButtonProps}
        cancelText={t("actions.cancel")}
        onCancel={() => setEditing(null)}
        onOk={() =>
          void form.validateFields().then((values) =>
            save.mutate({
              id: editing === "new" || !editing ? undefined : editing.id,
              body: couponBody(values),
            }),
          )
        }
        destroyOnHidden
        forceRender
      >
        <CouponForm form={form} plans={plans.data ?? []} />
      </Modal>
    </Space>
  );
}
