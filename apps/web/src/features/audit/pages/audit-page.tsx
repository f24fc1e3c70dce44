import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditEntry } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import {
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Flex,
  Form,
  Input,
  Result,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { useFormat } from "@/lib/format";
import { usePageTitle } from "@/lib/use-page-title";
import { type AuditFilters, auditListQuery } from "../api/audit-api";
import "../audit.css";
import { WIDE_ONLY } from "@/lib/table";

const PAGE_SIZE = 20;

interface FilterForm {
  actor?: string;
  action?: AuditFilters["action"];
  target_type?: AuditFilters["target_type"];
  target_id?: string;
  dates?: [Dayjs | null, Dayjs | null] | null;
  /** Sign-ins outnumber every other entry: they are left out unless asked for. */
  sign_ins?: boolean;
}

/** The form's values as the API's filters: whole days, the end day included. */
function toFilters(values: FilterForm): AuditFilters {
  const [start, end] = values.dates ?? [];
  return {
    actor: values.actor?.trim() || undefined,
    action: values.action || undefined,
    target_type: values.target_type || undefined,
    target_id: values.target_id?.trim() || undefined,
    from: start ? start.startOf("day").toISOString() : undefined,
    to: end ? end.add(1, "day").startOf("day").toISOString() : undefined,
    sign_ins: values.sign_ins || values.action?.startsWith("auth.") ? "show" : "hide",
  };
}

function Json({ value, label }: { value: unknown; label: string }) {
  const { t } = useTranslation("audit");
  return (
    <figure className="audit-side">
      <figcaption>
        <Typography.Text strong>{label}</Typography.Text>
      </figcaption>
      {value === null || value === undefined ? (
        <Typography.Paragraph type="secondary">{t("details.none")}</Typography.Paragraph>
      ) : (
        <pre className="audit-json">{JSON.stringify(value, null, 2)}</pre>
      )}
    </figure>
  );
}

/** `/audit` (staff, audit.read): the audit log, filtered and paged, each entry's before and after on demand. */
export function AuditPage() {
  const { t } = useTranslation("audit");
  const format = useFormat();
  usePageTitle(t("title"));
  const [form] = Form.useForm<FilterForm>();
  const [filters, setFilters] = useState<AuditFilters>(toFilters({}));
  const [page, setPage] = useState(1);
  const list = useQuery(auditListQuery({ ...filters, page, pageSize: PAGE_SIZE }));
  const actionLabel = (action: string) => t(`actions.${action}`, { defaultValue: action });
  const targetLabel = (type: string) => t(`targets.${type}`, { defaultValue: type });

  const apply = (values: FilterForm) => {
    setFilters(toFilters(values));
    setPage(1);
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
          {t("title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
      </div>
      <Card title={t("filters.label")}>
        <Form<FilterForm> form={form} layout="vertical" onFinish={apply} data-testid="audit-filters">
          <Row gutter={16}>
            <Col xs={24} md={12} lg={8}>
              <Form.Item name="actor" label={t("filters.actor")}>
                <Input allowClear maxLength={254} data-testid="audit-filter-actor" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} lg={8}>
              <Form.Item name="action" label={t("filters.action")}>
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: "label" }}
                  data-testid="audit-filter-action"
                  options={AUDIT_ACTIONS.map((value) => ({ value, label: actionLabel(value) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} lg={8}>
              <Form.Item name="dates" label={t("filters.dates")}>
                <DatePicker.RangePicker
                  allowEmpty={[true, true]}
                  style={{ width: "100%" }}
                  placeholder={[t("filters.from"), t("filters.to")]}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} lg={8}>
              <Form.Item name="target_type" label={t("filters.targetType")}>
                <Select
                  allowClear
                  options={AUDIT_TARGET_TYPES.map((value) => ({ value, label: targetLabel(value) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} lg={8}>
              <Form.Item name="target_id" label={t("filters.targetId")}>
                <Input allowClear maxLength={200} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="sign_ins" valuePropName="checked">
            <Checkbox data-testid="audit-filter-sign-ins">{t("filters.signIns")}</Checkbox>
          </Form.Item>
          <Flex gap={8}>
            <Button type="primary" htmlType="submit" data-testid="audit-filter-apply">
              {t("filters.apply")}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                apply({});
              }}
            >
              {t("filters.reset")}
            </Button>
          </Flex>
        </Form>
      </Card>
      <Card>
        {list.isError ? (
          <Result
            status="warning"
            title={t("loadError")}
            subTitle={errorText(list.error)}
            extra={<Button onClick={() => void list.refetch()}>{t("retry")}</Button>}
          />
        ) : (
          <Table<AuditEntry>
            rowKey="id"
            data-testid="audit-table"
            loading={list.isFetching}
            dataSource={list.data?.entries ?? []}
            scroll={{ x: true }}
            locale={{ emptyText: t("empty") }}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: list.data?.pagination.total ?? 0,
              onChange: setPage,
              showSizeChanger: false,
              showTotal: (total) => t("total", { count: total }),
            }}
            expandable={{
              expandedRowRender: (entry) => (
                <Space orientation="vertical" style={{ width: "100%" }} data-testid="audit-details">
                  <Row gutter={16}>
                    <Col xs={24} md={12}>
                      <Json value={entry.before} label={t("details.before")} />
                    </Col>
                    <Col xs={24} md={12}>
                      <Json value={entry.after} label={t("details.after")} />
                    </Col>
                  </Row>
                  {entry.target_id && (
                    <Typography.Text type="secondary">
                      {t("filters.targetId")} : <Typography.Text code>{entry.target_id}</Typography.Text>
                    </Typography.Text>
                  )}
                  {entry.user_agent && (
                    <Typography.Text type="secondary">
                      {t("details.userAgent")} : {entry.user_agent}
                    </Typography.Text>
                  )}
                </Space>
              ),
              expandIcon: ({ expanded, onExpand, record }) => (
                <Button
                  size="small"
                  type="text"
                  aria-expanded={expanded}
                  aria-label={expanded ? t("details.collapse") : t("details.expand")}
                  data-testid="audit-expand"
                  onClick={(event) => onExpand(record, event)}
                >
                  {expanded ? "−" : "+"}
                </Button>
              ),
            }}
            columns={[
              {
                key: "time",
                title: t("columns.time"),
                render: (_: unknown, e: AuditEntry) => (
                  <time dateTime={e.created_at}>{format.dateTime(e.created_at)}</time>
                ),
              },
              {
                key: "actor",
                title: t("columns.actor"),
                render: (_: unknown, e: AuditEntry) =>
                  e.actor_id ? (
                    e.actor_email
                  ) : !e.actor_email ? (
                    // written by Parlons itself (a course published at its scheduled time)
                    <Tag>{t("system")}</Tag>
                  ) : (
                    <Space size={4}>
                      <span>{e.actor_email}</span>
                      <Tag>{t("anonymous")}</Tag>
                    </Space>
                  ),
              },
              {
                key: "action",
                title: t("columns.action"),
                render: (_: unknown, e: AuditEntry) => (
                  <Tag color={e.action.startsWith("auth.login_failed") ? "red" : "blue"}>
                    {actionLabel(e.action)}
                  </Tag>
                ),
              },
              {
                key: "target",
                responsive: WIDE_ONLY,
                title: t("columns.target"),
                render: (_: unknown, e: AuditEntry) => (
                  <Space size={4} wrap>
                    <Tag>{targetLabel(e.target_type)}</Tag>
                    {e.target_label ? (
                      <Tooltip title={e.target_id}>
                        <span data-testid="audit-target-label">{e.target_label}</span>
                      </Tooltip>
                    ) : (
                      e.target_id && <Typography.Text code>{e.target_id}</Typography.Text>
                    )}
                  </Space>
                ),
              },
              { key: "ip", title: t("columns.ip"), render: (_: unknown, e: AuditEntry) => e.ip ?? "—" },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
