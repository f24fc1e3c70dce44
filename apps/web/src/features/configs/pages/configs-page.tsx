import type { ConfigItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AdminListPage } from "@/components/admin-list-page";
import { errorText } from "@/lib/api-error";
import { formatDateTime } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { configListQuery, useDeleteConfig } from "../api/configs-api";
import { ConfigForm } from "../components/config-form";
import { previewConfigValue } from "../lib/config-json";
import "../configs.css";

const PAGE_SIZE = 50;

/** `/configs` (staff, configs.manage): key/value table, JSON editor in a drawer, delete with confirm. */
export function ConfigsPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  usePageTitle(t("events:configs.title"));
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState<string | undefined>();
  const list = useQuery(configListQuery({ page, pageSize: PAGE_SIZE, search }));
  const remove = useDeleteConfig();

  const confirmDelete = (config: ConfigItem) => {
    modal.confirm({
      title: t("events:configs.deleteTitle", { key: config.key }),
      content: t("events:configs.deleteText"),
      okText: t("events:configs.deleteOk"),
      okButtonProps: { danger: true },
      cancelText: t("common:actions.cancel"),
      onOk: () =>
        remove
          .mutateAsync(config.key)
          .then(() => void message.success(t("events:configs.deleted")))
          .catch((error: unknown) => void message.error(errorText(error))),
    });
  };

  return (
    <AdminListPage<ConfigItem>
      title={t("events:configs.title")}
      subtitle={t("events:configs.subtitle")}
      create={{ label: t("events:configs.create"), testId: "config-create" }}
      toolbar={
        <Input.Search
          allowClear
          placeholder={t("events:configs.search")}
          aria-label={t("events:configs.search")}
          onSearch={(value) => {
            setSearch(value.trim() || undefined);
            setPage(1);
          }}
          style={{ maxWidth: 320, marginBottom: 12 }}
        />
      }
      list={list}
      loadError={t("events:configs.loadError")}
      retry={t("events:list.retry")}
      rows={list.data?.configs ?? []}
      rowKey="key"
      tableTestId="configs-table"
      empty={t("events:configs.empty")}
      pages={{ page, size: PAGE_SIZE, total: list.data?.pagination.total, onChange: setPage }}
      columns={[
        {
          key: "key",
          title: t("events:configs.columns.key"),
          render: (_: unknown, c: ConfigItem) => <Typography.Text code>{c.key}</Typography.Text>,
        },
        {
          key: "value",
          title: t("events:configs.columns.value"),
          render: (_: unknown, c: ConfigItem) => (
            <code className="config-preview">{previewConfigValue(c.value)}</code>
          ),
        },
        {
          key: "description",
          responsive: WIDE_ONLY,
          title: t("events:configs.columns.description"),
          dataIndex: "description",
        },
        {
          key: "updated",
          responsive: WIDE_ONLY,
          title: t("events:configs.columns.updated"),
          render: (_: unknown, c: ConfigItem) => formatDateTime(c.updated_at, lang),
        },
      ]}
      actionsTitle={t("events:configs.columns.actions")}
      edit={{ testId: "config-edit", label: (c) => t("events:configs.edit", { key: c.key }) }}
      remove={{
        testId: "config-delete",
        label: (c) => t("events:configs.delete", { key: c.key }),
        onClick: confirmDelete,
      }}
      editor={{
        title: (c) => (c ? t("events:configs.editTitle", { key: c.key }) : t("events:configs.create")),
        size: 560,
        form: (config, close) => (
          <ConfigForm
            key={config?.key ?? "new"}
            config={config}
            onCancel={close}
            onSaved={() => {
              void message.success(t("events:configs.saved"));
              close();
            }}
          />
        ),
      }}
    />
  );
}
