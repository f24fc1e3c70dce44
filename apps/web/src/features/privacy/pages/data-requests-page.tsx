import { DATA_REQUEST_STATUSES, type DataRequestListResponse } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Progress, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { useFormat } from "@/lib/format";
import { tablePages, WIDE_ONLY } from "@/lib/table";
import { usePageTitle } from "@/lib/use-page-title";
import { dataRequestListQuery, useProcessDataRequest } from "../api/data-requests-api";

type Status = (typeof DATA_REQUEST_STATUSES)[number];
type Row = DataRequestListResponse["data"]["requests"][number];
const PAGE_SIZE = 20;
const COLORS: Record<Status, string> = { pending: "gold", running: "blue", done: "green", failed: "red" };

/** `/data-requests` (privacy.manage): learners' data exports and erasures; pending exports run by hand. */
export function DataRequestsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const format = useFormat();
  const _queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<Status | undefined>();
  usePageTitle(t("app:dataRequests.title"));
  const list = useQuery(dataRequestListQuery({ page, pageSize: PAGE_SIZE, status }));
  const process = useProcessDataRequest({
    onSuccess: () => {
      message.success(t("app:dataRequests.processed"));
    },
    onError: (error) => message.error(errorText(error)),
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title">
          {t("app:dataRequests.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("app:dataRequests.subtitle")}</Typography.Text>
      </div>
      <Card>
        <Select<Status | undefined>
          allowClear
          placeholder={t("app:dataRequests.all")}
          aria-label={t("app:dataRequests.status")}
          style={{ width: 200, marginBottom: 16 }}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          options={DATA_REQUEST_STATUSES.map((s) => ({ value: s, label: t(`app:dataRights.status.${s}`) }))}
        />
        {list.isError ? (
          <LoadError query={list} compact />
        ) : (
          <Table<Row>
            rowKey="id"
            data-testid="data-requests-table"
            loading={list.isFetching}
            dataSource={list.data?.requests ?? []}
            locale={{ emptyText: t("app:dataRequests.empty") }}
            scroll={{ x: true }}
            pagination={tablePages(page, PAGE_SIZE, list.data?.pagination.total, setPage)}
            columns={[
              {
                title: t("app:dataRequests.requested"),
                dataIndex: "requested_at",
                render: (value: string) => format.dateTime(value),
              },
              {
                title: t("app:dataRequests.kind"),
                dataIndex: "kind",
                render: (kind: Row["kind"]) => t(`app:dataRequests.kinds.${kind}`),
              },
              {
                title: t("app:dataRequests.email"),
                dataIndex: "email",
                responsive: WIDE_ONLY,
                render: (email: string | null) => email ?? t("app:dataRequests.erased"),
              },
              {
                title: t("app:dataRequests.status"),
                dataIndex: "status",
                render: (value: Status, row) => (
                  <Space>
                    <Tag color={COLORS[value]}>
                      {/* an erasure done mailed no link */}
                      {value === "done" && row.kind === "erasure"
                        ? t("app:dataRights.erasureDone")
                        : t(`app:dataRights.status.${value}`)}
                    </Tag>
                    {value === "running" && (
                      <Progress percent={row.progress} size="small" style={{ width: 80 }} />
                    )}
                  </Space>
                ),
              },
              {
                title: t("app:dataRequests.finished"),
                dataIndex: "finished_at",
                responsive: WIDE_ONLY,
                render: (value: string | null) => (value ? format.dateTime(value) : "—"),
              },
              {
                key: "actions",
                render: (_: unknown, row) =>
                  row.kind === "export" && (row.status === "pending" || row.status === "failed") ? (
                    <Button
                      size="small"
                      onClick={() => process.mutate(row.id)}
                      loading={process.isPending && process.variables === row.id}
                    >
                      {t("app:dataRequests.process")}
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
