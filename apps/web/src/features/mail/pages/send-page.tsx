import { ExperimentOutlined, SendOutlined } from "@ant-design/icons";
import type { CampaignSendBody } from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Radio,
  Row,
  Select,
  Space,
  Statistic,
  Typography,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { usePageTitle } from "@/lib/use-page-title";
import { audienceCountQuery, useSendCampaign, useTestCampaign } from "../api/campaigns-api";
import { activeTemplatesQuery } from "../api/templates-api";
import { AudienceFields } from "../components/audience-fields";
import { CampaignProgress } from "../components/campaign-progress";
import { CampaignsHistory } from "../components/campaigns-history";
import { CustomMessageFields } from "../components/custom-message-fields";
import { MailPreview } from "../components/mail-preview";
import { VariablesHelp } from "../components/variables-help";
import { EMPTY_AUDIENCE, toAudience } from "../lib/audience";
import { contentOf, type SendValues } from "../lib/send-values";
import { templateName } from "../lib/template-name";
import "../mail.css";

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
                  <CustomMessageFields />
                  <VariablesHelp />
                  <MailPreview texts={values ?? {}} />
                </>
              )}
            </Card>
          </Col>
          <Col xs={24} lg={10}>
            <Card title={t("mail:send.audience")}>
              <AudienceFields />
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
