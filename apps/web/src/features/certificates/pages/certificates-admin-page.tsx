import { CERTIFICATE_STATUSES, type StaffCertificate } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Input, Modal, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { useFormat } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { tablePages, WIDE_ONLY } from "@/lib/table";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { certificateCourse } from "../api/certificate-queries";
import { certificateListQuery, useRevokeCertificate } from "../api/certificates-api";

type Status = (typeof CERTIFICATE_STATUSES)[number];
const PAGE_SIZE = 20;

/** `/certificates` (certificates.manage): every certificate, searched and filtered; revoke one after confirming. */
export function CertificatesAdminPage() {
  const { t } = useTranslation("certificates");
  const { message } = App.useApp();
  const format = useFormat();
  const lang = useLang();
  const to = useLocalePath();
  const _queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState("");
  const [status, setStatus] = useState<Status | undefined>();
  const [revoking, setRevoking] = useState<StaffCertificate | null>(null);
  const [reason, setReason] = useState("");
  usePageTitle(t("admin.title"));
  const list = useQuery(certificateListQuery({ page, pageSize: PAGE_SIZE, q: q || undefined, status }));
  const revoke = useRevokeCertificate({
    onSuccess: () => {
      message.success(t("admin.revoked"));
      setRevoking(null);
      setReason("");
    },
    onError: (error) => message.error(errorText(error)),
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title">
          {t("admin.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("admin.subtitle")}</Typography.Text>
      </div>
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            aria-label={t("admin.search")}
            placeholder={t("admin.search")}
            style={{ width: 280 }}
            maxLength={100}
            onSearch={(value) => {
              setQ(value.trim());
              setPage(1);
            }}
            data-testid="certificates-search"
          />
          <Select<Status | undefined>
            allowClear
            placeholder={t("admin.allStatuses")}
            aria-label={t("admin.status")}
            style={{ width: 200 }}
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
            options={CERTIFICATE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          />
        </Space>
        {list.isError ? (
          <LoadError query={list} compact />
        ) : (
          <Table<StaffCertificate>
            rowKey="id"
            data-testid="certificates-table"
            scroll={{ x: true }}
            loading={list.isFetching}
            dataSource={list.data?.certificates ?? []}
            locale={{ emptyText: t("admin.empty") }}
            pagination={tablePages(page, PAGE_SIZE, list.data?.pagination.total, setPage)}
            columns={[
              {
                title: t("admin.code"),
                dataIndex: "code",
                render: (code: string) => (
                  <Link to={to(pagePath("certificateVerify", { code }))}>{code}</Link>
                ),
              },
              {
                title: t("admin.learner"),
                dataIndex: "learner_name",
                render: (name: string) => name || t("document.noName"),
              },
              {
                title: t("admin.course"),
                key: "course",
                responsive: WIDE_ONLY,
                render: (_: unknown, row) => certificateCourse(row, lang),
              },
              {
                title: t("admin.issued"),
                dataIndex: "issued_at",
                responsive: WIDE_ONLY,
                render: (value: string) => format.date(value),
              },
              {
                title: t("admin.status"),
                dataIndex: "status",
                render: (value: Status, row) => (
                  <Tag color={value === "valid" ? "green" : "red"} title={row.revoke_reason ?? undefined}>
                    {t(`status.${value}`)}
                  </Tag>
                ),
              },
              {
                key: "actions",
                title: <span className="visually-hidden">{t("admin.actions")}</span>,
                render: (_: unknown, row) =>
                  row.status === "valid" ? (
                    <Button
                      size="small"
                      danger
                      onClick={() => setRevoking(row)}
                      aria-label={t("admin.revokeOne", { code: row.code })}
                    >
                      {t("admin.revoke")}
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </Card>
      <Modal
        open={revoking !== null}
        title={t("admin.confirmTitle", { code: revoking?.code ?? "" })}
        okText={t("admin.revoke")}
        okButtonProps={{ danger: true, loading: revoke.isPending }}
        cancelText={t("admin.cancel")}
        onOk={() => revoking && revoke.mutate({ id: revoking.id, why: reason })}
        onCancel={() => {
          setRevoking(null);
          setReason("");
        }}
        destroyOnHidden
      >
        <Typography.Paragraph>
          {t("admin.confirmText", { name: revoking?.learner_name || t("document.noName") })}
        </Typography.Paragraph>
        <label htmlFor="certificate-revoke-reason">{t("admin.reason")}</label>
        <Input.TextArea
          id="certificate-revoke-reason"
          value={reason}
          maxLength={500}
          showCount
          rows={3}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
    </Space>
  );
}
