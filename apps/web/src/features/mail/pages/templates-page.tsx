import { type EmailTemplate, pickField } from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { App, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AdminListPage } from "@/components/admin-list-page";
import { errorText } from "@/lib/api-error";
import { formatDateTime } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { templatesQuery, useDeleteTemplate } from "../api/templates-api";
import { TemplateForm } from "../components/template-form";
import { templateName } from "../lib/template-name";
import "../mail.css";

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
    <AdminListPage<EmailTemplate>
      title={t("mail:templates.title")}
      subtitle={t("mail:templates.subtitle")}
      create={{ label: t("mail:templates.create"), testId: "template-create" }}
      list={templates}
      loadError={t("mail:templates.loadError")}
      retry={t("mail:templates.retry")}
      rows={templates.data?.templates ?? []}
      rowKey="id"
      tableTestId="templates-table"
      empty={t("mail:templates.empty")}
      pages={{ page, size: PAGE_SIZE, total: templates.data?.pagination.total, onChange: setPage }}
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
          render: (_: unknown, row: EmailTemplate) => <Typography.Text code>{row.slug}</Typography.Text>,
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
      ]}
      actionsTitle={t("mail:templates.columns.actions")}
      edit={{
        testId: "template-edit",
        label: (row) => t("mail:templates.edit", { name: templateName(t, row) }),
      }}
      remove={{
        testId: "template-delete",
        label: (row) => t("mail:templates.delete", { name: templateName(t, row) }),
        onClick: confirmDelete,
      }}
      editor={{
        title: (row) =>
          row ? t("mail:templates.editTitle", { name: templateName(t, row) }) : t("mail:templates.create"),
        size: 820,
        form: (template, close) => (
          <TemplateForm
            key={template?.id ?? "new"}
            template={template}
            onCancel={close}
            onSaved={() => {
              void message.success(t("mail:templates.saved"));
              close();
            }}
          />
        ),
      }}
    />
  );
}
