import { SendOutlined } from "@ant-design/icons";
import {
  BUILT_IN_ROLES,
  type CampaignSendBody,
  type MailAudience,
  type MailCampaign,
  unknownVariables,
} from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { FormRule } from "antd";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  Progress,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from "antd";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/api";
import { useLang } from "../../../lib/use-locale";
import { usePageTitle } from "../../../lib/use-page-title";
import { audienceCountQuery, campaignQuery, campaignsQuery, useSendCampaign } from "../api/campaigns-api";
import { activeTemplatesQuery } from "../api/templates-api";
import { MailPreview } from "../components/mail-preview";
import { VariablesHelp } from "../components/variables-help";
import { ANY, type AudienceValues, EMPTY_AUDIENCE, toAudience } from "../lib/audience";
import "../mail.css";
import { formatDateTime } from "../../../lib/format";

interface SendValues extends AudienceValues {
  source: "template" | "custom";
  template_id?: string;
  subject_fr?: string;
  subject_en?: string;
  body_fr?: string;
  body_en?: string;
}

const STATUS_COLORS: Record<MailCampaign["status"], string> = {
  DRAFT: "default",
  QUEUED: "blue",
  SENDING: "processing",
  SENT: "green",
  FAILED: "red",
};

function textRules(t: TFunction): FormRule[] {
  return [
    { required: true, whitespace: true, message: t("mail:templates.form.required") },
    {
      validator: async (_rule, value: string | undefined) => {
        const unknown = unknownVariables(value ?? "");
        if (unknown.length)
          throw new Error(t("mail:templates.form.unknownVariable", { names: unknown.join(", ") }));
      },
    },
  ];
}

function audienceText(audience: MailAudience, t: TFunction): string {
  const parts = [
    audience.role,
    audience.plan === "free" || audience.plan === "premium"
      ? t(`mail:send.plans.${audience.plan}`)
      : audience.plan,
    audience.speak ? t(`mail:send.languages.${audience.speak}`) : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : t("mail:send.everyone");
}

/** Live progress of a campaign just queued: polls it until it is SENT (or FAILED). */
function CampaignProgress({ id, onDone }: { id: string; onDone: () => void }) {
  const { t } = useTranslation();
  const campaign = useQuery(campaignQuery(id)).data;
  const total = campaign?.total ?? 0;
  const done = (campaign?.sent ?? 0) + (campaign?.failed ?? 0);
  const percent = total ? Math.round((done / total) * 100) : 0;
  const finished = campaign?.status === "SENT" || campaign?.status === "FAILED";
  return (
    <Card title={finished ? t("mail:send.done") : t("mail:send.progressTitle")}>
      <div data-testid="campaign-progress" data-percent={percent} data-status={campaign?.status ?? ""}>
        <Progress
          percent={percent}
          status={campaign?.status === "FAILED" ? "exception" : finished ? "success" : "active"}
          format={(value) => `${value ?? 0} %`}
        />
        <Typography.Text type="secondary">
          {t("mail:send.progress", { sent: campaign?.sent ?? 0, failed: campaign?.failed ?? 0, total })}
        </Typography.Text>
      </div>
      {finished && (
        <Button style={{ marginTop: 12 }} onClick={onDone}>
          {t("mail:send.newMail")}
        </Button>
      )}
    </Card>
  );
}

function CampaignsHistory() {
  const { t } = useTranslation();
  const lang = useLang();
  const [page, setPage] = useState(1);
  const campaigns = useQuery({
    ...campaignsQuery(page),
    placeholderData: keepPreviousData,
    // while a campaign of the page is still going, its counts move
    refetchInterval: (query) =>
      query.state.data?.campaigns.some((c) => c.status === "QUEUED" || c.status === "SENDING") ? 2000 : false,
  });
  if (campaigns.isError) {
    return (
      <Result
        status="warning"
        title={t("mail:send.loadError")}
        subTitle={errorText(campaigns.error)}
        extra={<Button onClick={() => void campaigns.refetch()}>{t("mail:send.retry")}</Button>}
      />
    );
  }
  return (
    <Table<MailCampaign>
      rowKey="id"
      data-testid="campaigns-table"
      loading={campaigns.isPending}
      dataSource={campaigns.data?.campaigns ?? []}
      pagination={{
        current: page,
        pageSize: 10,
        total: campaigns.data?.pagination.total ?? 0,
        onChange: setPage,
        hideOnSinglePage: true,
      }}
      scroll={{ x: true }}
      locale={{ emptyText: t("mail:send.historyEmpty") }}
      columns={[
        {
          key: "date",
          title: t("mail:send.columns.date"),
          render: (_: unknown, row: MailCampaign) => formatDateTime(row.started_at ?? row.created_at, lang),
        },
        {
          key: "subject",
          title: t("mail:send.columns.subject"),
          render: (_: unknown, row: MailCampaign) => (lang === "fr" ? row.subject_fr : row.subject_en),
        },
        {
          key: "audience",
          title: t("mail:send.columns.audience"),
          render: (_: unknown, row: MailCampaign) => audienceText(row.audience, t),
        },
        {
          key: "status",
          title: t("mail:send.columns.status"),
          render: (_: unknown, row: MailCampaign) => (
            <Tag color={STATUS_COLORS[row.status]}>{t(`mail:send.status.${row.status}`)}</Tag>
          ),
        },
        {
          key: "counts",
          title: t("mail:send.columns.counts"),
          render: (_: unknown, row: MailCampaign) => `${row.sent} / ${row.failed} / ${row.total}`,
        },
      ]}
    />
  );
}

/** `/mail/send` (staff, mail.manage): a template or a message, an audience, its size, then the send and its progress. */
export function MailSendPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  usePageTitle(t("mail:send.title"));
  const [form] = Form.useForm<SendValues>();
  const values = Form.useWatch([], form) as Partial<SendValues> | undefined;
  const source = values?.source ?? "template";
  const audience = toAudience(values);
  const count = useQuery({ ...audienceCountQuery(audience), placeholderData: keepPreviousData });
  const templates = useQuery(activeTemplatesQuery);
  const send = useSendCampaign();
  const [campaignId, setCampaignId] = useState<string | null>(null);
  const chosen = templates.data?.find((tpl) => tpl.id === values?.template_id);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const total = count.data ?? 0;
    if (total === 0) {
      void message.warning(t("mail:send.nobody"));
      return;
    }
    const body: CampaignSendBody =
      v.source === "template"
        ? { template_id: v.template_id, audience: toAudience(v) }
        : {
            subject_fr: v.subject_fr,
            subject_en: v.subject_en,
            body_fr: v.body_fr,
            body_en: v.body_en,
            audience: toAudience(v),
          };
    modal.confirm({
      title: t("mail:send.confirmTitle", { count: total }),
      content: t("mail:send.confirmText"),
      okText: t("mail:send.confirmOk"),
      cancelText: t("mail:send.cancel"),
      onOk: () =>
        send
          .mutateAsync(body)
          .then((campaign) => {
            setCampaignId(campaign.id);
            void message.success(t("mail:send.queued"));
          })
          .catch((error: unknown) => void message.error(errorText(error))),
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
          {t("mail:send.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("mail:send.subtitle")}</Typography.Text>
      </div>
      {campaignId && <CampaignProgress id={campaignId} onDone={() => setCampaignId(null)} />}
      <Form<SendValues>
        form={form}
        layout="vertical"
        name="send-mail"
        initialValues={{ source: "template", ...EMPTY_AUDIENCE }}
        requiredMark="optional"
      >
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <Card title={t("mail:send.content")}>
              <Form.Item name="source">
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: "template", label: t("mail:send.source.template") },
                    { value: "custom", label: t("mail:send.source.custom") },
                  ]}
                />
              </Form.Item>
              {source === "template" ? (
                <>
                  {templates.data?.length === 0 && (
                    <Alert
                      type="info"
                      showIcon
                      title={t("mail:send.noTemplate")}
                      style={{ marginBottom: 16 }}
                    />
                  )}
                  <Form.Item
                    name="template_id"
                    label={t("mail:send.template")}
                    rules={[{ required: true, message: t("mail:templates.form.required") }]}
                  >
                    <Select
                      data-testid="mail-template-select"
                      placeholder={t("mail:send.templatePlaceholder")}
                      loading={templates.isPending}
                      showSearch={{ optionFilterProp: "label" }}
                      options={(templates.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
                    />
                  </Form.Item>
                  {chosen && <MailPreview texts={chosen} />}
                </>
              ) : (
                <>
                  <Row gutter={12}>
                    <Col xs={24} md={12}>
                      <Form.Item
                        name="subject_fr"
                        label={t("mail:templates.form.subjectFr")}
                        rules={textRules(t)}
                      >
                        <Input maxLength={200} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item
                        name="subject_en"
                        label={t("mail:templates.form.subjectEn")}
                        rules={textRules(t)}
                      >
                        <Input maxLength={200} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item name="body_fr" label={t("mail:templates.form.bodyFr")} rules={textRules(t)}>
                        <Input.TextArea rows={6} maxLength={20_000} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item name="body_en" label={t("mail:templates.form.bodyEn")} rules={textRules(t)}>
                        <Input.TextArea rows={6} maxLength={20_000} />
                      </Form.Item>
                    </Col>
                  </Row>
                  <VariablesHelp />
                  <MailPreview texts={values ?? {}} />
                </>
              )}
            </Card>
          </Col>
          <Col xs={24} lg={10}>
            <Card title={t("mail:send.audience")}>
              <Form.Item name="role" label={t("mail:send.role")}>
                <Select
                  data-testid="mail-audience-role"
                  options={[ANY, ...BUILT_IN_ROLES].map((role) => ({
                    value: role,
                    label: role === ANY ? t("mail:send.any") : role,
                  }))}
                />
              </Form.Item>
              <Form.Item name="plan" label={t("mail:send.plan")}>
                <Select
                  data-testid="mail-audience-plan"
                  options={[
                    { value: ANY, label: t("mail:send.any") },
                    { value: "free", label: t("mail:send.plans.free") },
                    { value: "premium", label: t("mail:send.plans.premium") },
                  ]}
                />
              </Form.Item>
              <Form.Item name="speak" label={t("mail:send.speak")}>
                <Select
                  data-testid="mail-audience-speak"
                  options={[
                    { value: ANY, label: t("mail:send.any") },
                    { value: "FR", label: t("mail:send.languages.FR") },
                    { value: "EN", label: t("mail:send.languages.EN") },
                  ]}
                />
              </Form.Item>
              <Flex justify="space-between" align="end" wrap gap={12}>
                <div
                  data-testid="mail-audience-count"
                  data-count={count.isFetching ? "" : (count.data ?? "")}
                >
                  <Statistic
                    title={t("mail:send.audience")}
                    value={
                      count.isPending
                        ? t("mail:send.counting")
                        : t("mail:send.count", { count: count.data ?? 0 })
                    }
                  />
                </div>
                <Button
                  type="primary"
                  icon={<SendOutlined />}
                  onClick={() => void submit()}
                  loading={send.isPending}
                  disabled={count.isFetching || !count.data}
                  data-testid="mail-send"
                >
                  {t("mail:send.submit")}
                </Button>
              </Flex>
            </Card>
          </Col>
        </Row>
      </Form>
      <Card title={t("mail:send.history")}>
        <CampaignsHistory />
      </Card>
    </Space>
  );
}
