import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { ConfigItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Flex, Input, Result, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { configListQuery, useDeleteConfig } from "../api/configs-api";
import { ConfigForm } from "../components/config-form";
import { previewConfigValue } from "../lib/config-json";
import "../configs.css";
import { EditorDrawer } from "@/components/editor-drawer";
import { formatDateTime } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";

const PAGE_SIZE = 50;
type Editing = { config: ConfigItem | null } | null;

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
  const [editing, setEditing] = useState<Editing>(null);

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
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
            {t("events:configs.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("events:configs.subtitle")}</Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ config: null })}
          data-testid="config-create"
        >
          {t("events:configs.create")}
        </Button>
      </Flex>
      <Card>
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
        {list.isError ? (
          <Result
            status="warning"
            title={t("events:configs.loadError")}
            subTitle={errorText(list.error)}
            extra={<Button onClick={() => void list.refetch()}>{t("events:list.retry")}</Button>}
          />
        ) : (
          <Table<ConfigItem>
            rowKey="key"
            data-testid="configs-table"
            loading={list.isPending}
            dataSource={list.data?.configs ?? []}
            scroll={{ x: true }}
            locale={{ emptyText: t("events:configs.empty") }}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: list.data?.pagination.total ?? 0,
              onChange: setPage,
              hideOnSinglePage: true,
            }}
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
              {
                key: "actions",
                title: t("events:configs.columns.actions"),
                render: (_: unknown, c: ConfigItem) => (
                  <Space>
                    <Button
                      icon={<EditOutlined />}
                      onClick={() => setEditing({ config: c })}
                      data-testid="config-edit"
                      aria-label={t("events:configs.edit", { key: c.key })}
                    />
                    <Button
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => confirmDelete(c)}
                      data-testid="config-delete"
                      aria-label={t("events:configs.delete", { key: c.key })}
                    />
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      <EditorDrawer
        title={
          editing?.config
            ? t("events:configs.editTitle", { key: editing.config.key })
            : t("events:configs.create")
        }
        open={editing !== null}
        onClose={() => setEditing(null)}
        size={560}
      >
        {editing && (
          <ConfigForm
            key={editing.config?.key ?? "new"}
            config={editing.config}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              void message.success(t("events:configs.saved"));
              setEditing(null);
            }}
          />
        )}
      </EditorDrawer>
    </Space>
  );
}
