import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { type EmailTemplate, pickField } from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { App, Button, Card, Flex, Result, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { templatesQuery, useDeleteTemplate } from "../api/templates-api";
import { TemplateForm } from "../components/template-form";
import { templateName } from "../lib/template-name";
import "../mail.css";
import { EditorDrawer } from "@/components/editor-drawer";
import { formatDateTime } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";

type Editing = { template: EmailTemplate | null } | null;
const PAGE_SIZE = 20;

/** `/mail/templates` (staff, mail.manage): templates in a table, create/edit in a drawer, delete. */
export function MailTemplatesPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  usePageTitle(t("mail:templates.title"));
  const [page, setPage] = useState(1);
  const templates = useQuery({ ...templatesQuery(page, PAGE_SIZE), placeholderData: keepPreviousData });
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<Editing>(null);

  const confirmDelete = (template: EmailTemplate) => {
    modal.confirm({
      title: t("mail:templates.deleteTitle", { name: templateName(t, template) }),
      content: template.transactional
        ? t("mail:templates.deleteTransactional")
        : t("mail:templates.deleteText"),
      okText: t("mail:templates.deleteOk"),
      okButtonProps: { danger: true },
      cancelText: t("common:actions.cancel"),
      onOk: () =>
        remove
          .mutateAsync(template.id)
          .then(() => void message.success(t("mail:templates.deleted")))
          .catch((error: unknown) => void message.error(errorText(error))),
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
            {t("mail:templates.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("mail:templates.subtitle")}</Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ template: null })}
          data-testid="template-create"
        >
          {t("mail:templates.create")}
        </Button>
      </Flex>
      <Card>
        {templates.isError ? (
          <Result
            status="warning"
            title={t("mail:templates.loadError")}
            subTitle={errorText(templates.error)}
            extra={<Button onClick={() => void templates.refetch()}>{t("mail:templates.retry")}</Button>}
          />
        ) : (
          <Table<EmailTemplate>
            rowKey="id"
            data-testid="templates-table"
            loading={templates.isPending}
            dataSource={templates.data?.templates ?? []}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: templates.data?.pagination.total ?? 0,
              onChange: setPage,
              hideOnSinglePage: true,
            }}
            scroll={{ x: true }}
            locale={{ emptyText: t("mail:templates.empty") }}
            columns={[
              {
                key: "name",
                title: t("mail:templates.columns.name"),
                render: (_: unknown, row: EmailTemplate) => (
                  <Space size={4} wrap>
                    <strong>{templateName(t, row)}</strong>
                    {row.transactional && <Tag color="blue">{t("mail:templates.transactional")}</Tag>}
                  </Space>
                ),
              },
              {
                key: "slug",
                responsive: WIDE_ONLY,
                title: t("mail:templates.columns.slug"),
                render: (_: unknown, row: EmailTemplate) => (
                  <Typography.Text code>{row.slug}</Typography.Text>
                ),
              },
              {
                key: "subject",
                responsive: WIDE_ONLY,
                title: t("mail:templates.columns.subject"),
                render: (_: unknown, row: EmailTemplate) => pickField(row, "subject", lang),
              },
              {
                key: "status",
                title: t("mail:templates.columns.status"),
                render: (_: unknown, row: EmailTemplate) => (
                  <Tag color={row.active ? "green" : "default"}>
                    {row.active ? t("mail:templates.active") : t("mail:templates.inactive")}
                  </Tag>
                ),
              },
              {
                key: "updated",
                responsive: WIDE_ONLY,
                title: t("mail:templates.columns.updated"),
                render: (_: unknown, row: EmailTemplate) => formatDateTime(row.updated_at, lang),
              },
              {
                key: "actions",
                title: t("mail:templates.columns.actions"),
                render: (_: unknown, row: EmailTemplate) => (
                  <Space>
                    <Button
                      icon={<EditOutlined />}
                      onClick={() => setEditing({ template: row })}
                      data-testid="template-edit"
                      aria-label={t("mail:templates.edit", { name: templateName(t, row) })}
                    />
                    <Button
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => confirmDelete(row)}
                      data-testid="template-delete"
                      aria-label={t("mail:templates.delete", { name: templateName(t, row) })}
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
          editing?.template
            ? t("mail:templates.editTitle", { name: templateName(t, editing.template) })
            : t("mail:templates.create")
        }
        open={editing !== null}
        onClose={() => setEditing(null)}
        size={820}
      >
        {editing && (
          <TemplateForm
            key={editing.template?.id ?? "new"}
            template={editing.template}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              void message.success(t("mail:templates.saved"));
              setEditing(null);
            }}
          />
        )}
      </EditorDrawer>
    </Space>
  );
}
