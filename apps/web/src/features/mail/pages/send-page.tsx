import { ExperimentOutlined, SendOutlined } from "@ant-design/icons";
import {
  BUILT_IN_ROLES,
  type CampaignSendBody,
  type CampaignTestBody,
  type MailAudience,
  type MailCampaign,
  pickField,
} from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
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
import { courseListQuery } from "@/features/courses/api/course-queries";
import { errorText } from "@/lib/api-error";
import { speakName, speakOptions } from "@/lib/languages";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import {
  audienceCountQuery,
  campaignQuery,
  campaignsQuery,
  useSendCampaign,
  useTestCampaign,
} from "../api/campaigns-api";
import { activeTemplatesQuery } from "../api/templates-api";
import { MailPreview } from "../components/mail-preview";
import { VariablesHelp } from "../components/variables-help";
import { ANY, type AudienceValues, EMPTY_AUDIENCE, INACTIVE_DAYS, toAudience } from "../lib/audience";
import { templateName } from "../lib/template-name";
import { textRules } from "../lib/text-rules";
import "../mail.css";
import { formatDateTime, formatNumber } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";

interface SendValues extends AudienceValues {
  source: "template" | "custom";
  template_id?: string;
  subject_fr?: string;
  subject_en?: string;
  body_fr?: string;
  body_en?: string;
  subject_es?: string;
  body_es?: string;
}

const STATUS_COLORS: Record<MailCampaign["status"], string> = {
  DRAFT: "default",
  QUEUED: "blue",
  SENDING: "processing",
  SENT: "green",
  FAILED: "red",
};

/** The message part of a send or a test: a template, or the texts written here. */
function contentOf(v: Partial<SendValues>): Omit<CampaignTestBody, "campaign_id"> {
  return v.source === "custom"
    ? {
        subject_fr: v.subject_fr,
        subject_en: v.subject_en,
        body_fr: v.body_fr,
        body_en: v.body_en,
        subject_es: v.subject_es?.trim() ?? "",
        body_es: v.body_es?.trim() ?? "",
      }
    : { template_id: v.template_id };
}

/** Active courses for the audience picker (the public list: every mail manager may read it). */
const pickerCourses = courseListQuery("active", { page: 1, pageSize: 100 });

function audienceText(audience: MailAudience, t: TFunction, courseTitle: (id: string) => string): string {
  const parts = [
    audience.role,
    audience.plan === "free" || audience.plan === "premium"
      ? t(`mail:send.plans.${audience.plan}`)
      : audience.plan,
    audience.speak ? speakName(audience.speak) : undefined,
    audience.course_id ? courseTitle(audience.course_id) : undefined,
    audience.inactive_days ? t("mail:send.inactiveFor", { count: audience.inactive_days }) : undefined,
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
  const courses = useQuery(pickerCourses).data?.courses ?? [];
  const courseTitle = (id: string) => {
    const course = courses.find((c) => c.id === id);
    return course ? pickField(course, "title", lang) : t("mail:send.someCourse");
  };
  const figure = (key: "total" | "sent" | "failed" | "unsubscribed") => ({
    key,
    title: t(`mail:send.columns.${key}`),
    align: "right" as const,
    render: (_: unknown, row: MailCampaign) => (
      <span data-testid={`campaign-${key}`}>{formatNumber(row[key], lang)}</span>
    ),
  });
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
          render: (_: unknown, row: MailCampaign) => pickField(row, "subject", lang),
        },
        {
          key: "audience",
          responsive: WIDE_ONLY,
          title: t("mail:send.columns.audience"),
          render: (_: unknown, row: MailCampaign) => audienceText(row.audience, t, courseTitle),
        },
        {
          key: "status",
          title: t("mail:send.columns.status"),
          render: (_: unknown, row: MailCampaign) => (
            <Tag color={STATUS_COLORS[row.status]}>{t(`mail:send.status.${row.status}`)}</Tag>
          ),
        },
        figure("total"),
        figure("sent"),
        figure("failed"),
        figure("unsubscribed"),
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
  const test = useTestCampaign();
  const lang = useLang();
  const courses = useQuery(pickerCourses);
  const [campaignId, setCampaignId] = useState<string | null>(null);
  /** What the last test send did, read out to screen readers too. */
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const chosen = templates.data?.find((tpl) => tpl.id === values?.template_id);
  const contentFields = [
    "source",
    "template_id",
    "subject_fr",
    "subject_en",
    "body_fr",
    "body_en",
    "subject_es",
    "body_es",
  ];

  /** The message as it stands, to the staff member alone: the audience is not needed. */
  const sendTest = async () => {
    const v = await form.validateFields(contentFields).catch(() => null);
    if (!v) return;
    setTestResult(null);
    try {
      const result = await test.mutateAsync(contentOf(v));
      const text = t(result.queued ? "mail:send.testSent" : "mail:send.testAgain", { email: result.to });
      setTestResult({ ok: true, text });
      void message.success(text);
    } catch (error) {
      const text = t("mail:send.testFailed", { reason: errorText(error) });
      setTestResult({ ok: false, text });
      void message.error(text);
    }
  };

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const total = count.data ?? 0;
    if (total === 0) {
      void message.warning(t("mail:send.nobody"));
      return;
    }
    const body: CampaignSendBody = { ...contentOf(v), audience: toAudience(v) };
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
                      options={(templates.data ?? []).map((tpl) => ({
                        value: tpl.id,
                        label: templateName(t, tpl),
                      }))}
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
                        rules={textRules(t, false)}
                      >
                        <Input maxLength={200} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item
                        name="subject_en"
                        label={t("mail:templates.form.subjectEn")}
                        rules={textRules(t, false)}
                      >
                        <Input maxLength={200} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item
                        name="body_fr"
                        label={t("mail:templates.form.bodyFr")}
                        rules={textRules(t, false)}
                      >
                        <Input.TextArea rows={6} maxLength={20_000} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item
                        name="body_en"
                        label={t("mail:templates.form.bodyEn")}
                        rules={textRules(t, false)}
                      >
                        <Input.TextArea rows={6} maxLength={20_000} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item
                        name="subject_es"
                        label={t("mail:templates.form.subjectEs")}
                        extra={t("mail:send.spanishHint")}
                        dependencies={["body_es"]}
                        rules={textRules(t, false, "body_es")}
                      >
                        <Input maxLength={200} data-testid="mail-subject-es" />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item
                        name="body_es"
                        label={t("mail:templates.form.bodyEs")}
                        dependencies={["subject_es"]}
                        rules={textRules(t, false, "subject_es")}
                      >
                        <Input.TextArea rows={6} maxLength={20_000} data-testid="mail-body-es" />
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
                  options={[{ value: ANY, label: t("mail:send.any") }, ...speakOptions()]}
                />
              </Form.Item>
              <Form.Item
                name="course_id"
                label={t("mail:send.course")}
                extra={t("mail:send.courseHelp")}
                {...(courses.isError
                  ? { validateStatus: "warning" as const, help: t("mail:send.coursesError") }
                  : {})}
              >
                <Select
                  data-testid="mail-audience-course"
                  loading={courses.isPending}
                  showSearch={{ optionFilterProp: "label" }}
                  notFoundContent={t("mail:send.noCourse")}
                  options={[
                    { value: ANY, label: t("mail:send.anyCourse") },
                    ...(courses.data?.courses ?? []).map((c) => ({
                      value: c.id,
                      label: pickField(c, "title", lang),
                    })),
                  ]}
                />
              </Form.Item>
              <Form.Item
                name="inactive_days"
                label={t("mail:send.inactive")}
                extra={t("mail:send.inactiveHelp")}
                rules={[
                  {
                    type: "integer",
                    min: INACTIVE_DAYS.min,
                    max: INACTIVE_DAYS.max,
                    message: t("mail:send.inactiveInvalid", INACTIVE_DAYS),
                  },
                ]}
              >
                <InputNumber
                  data-testid="mail-audience-inactive"
                  min={INACTIVE_DAYS.min}
                  max={INACTIVE_DAYS.max}
                  precision={0}
                  placeholder={t("mail:send.anyActivity")}
                  suffix={t("mail:send.days")}
                  style={{ width: "100%" }}
                />
              </Form.Item>
              {count.isError && (
                <Alert
                  type="error"
                  showIcon
                  style={{ marginBottom: 16 }}
                  title={t("mail:send.countError")}
                  description={errorText(count.error)}
                  data-testid="mail-audience-count-error"
                />
              )}
              <Flex justify="space-between" align="end" wrap gap={12}>
                <div
                  data-testid="mail-audience-count"
                  data-count={count.isFetching ? "" : (count.data ?? "")}
                >
                  <Statistic
                    title={t("mail:send.audience")}
                    value={
                      count.isPending && !count.isError
                        ? t("mail:send.counting")
                        : t("mail:send.count", { count: count.data ?? 0 })
                    }
                  />
                </div>
                <Button
                  icon={<ExperimentOutlined />}
                  onClick={() => void sendTest()}
                  loading={test.isPending}
                  data-testid="mail-send-test"
                >
                  {t("mail:send.test")}
                </Button>
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
              <div role="status" aria-live="polite" data-testid="mail-send-test-result">
                {testResult && (
                  <Typography.Text type={testResult.ok ? "success" : "danger"}>
                    {testResult.text}
                  </Typography.Text>
                )}
              </div>
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
