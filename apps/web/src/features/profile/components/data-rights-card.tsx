import { DeleteOutlined, DownloadOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Form, Input, List, Modal, Progress, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError, errorText } from "@/lib/api-error";
import { formatDate } from "@/lib/format";
import { logout } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { deleteMyAccount, myDataRequestsQuery, requestDataExport } from "../api/data-rights";

/** Saves the archive as a file, from the browser's memory. */
function saveJson(data: unknown) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `parlons-data-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Profile: "Download my data" and "Delete my account" (the learner's rights under the GDPR). */
export function DataRightsCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const to = useLocalePath();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const requests = useQuery(myDataRequestsQuery);
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [form] = Form.useForm<{ password: string }>();
  const jobs = (requests.data ?? []).filter((r) => r.kind === "export");

  const download = async () => {
    setExporting(true);
    try {
      const outcome = await requestDataExport();
      if ("archive" in outcome) {
        saveJson(outcome.archive);
        message.success(t("app:dataRights.downloaded"));
      } else {
        message.info(t("app:dataRights.jobStarted"));
        await queryClient.invalidateQueries({ queryKey: myDataRequestsQuery.queryKey });
      }
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setExporting(false);
    }
  };

  const erase = async ({ password }: { password: string }) => {
    setDeleting(true);
    try {
      await deleteMyAccount(password);
      setConfirming(false);
      await logout();
      message.success(t("app:dataRights.deleted"));
      navigate(to("/"), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === "WRONG_PASSWORD") {
        form.setFields([{ name: "password", errors: [t("app:dataRights.wrongPassword")] }]);
      } else {
        message.error(errorText(error));
      }
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Card
      className="narrow-card"
      title={t("app:dataRights.title")}
      data-testid="data-rights"
      style={{ marginTop: 24 }}
    >
      <Typography.Paragraph type="secondary">{t("app:dataRights.exportText")}</Typography.Paragraph>
      <Button
        icon={<DownloadOutlined />}
        onClick={() => void download()}
        loading={exporting}
        data-testid="data-export"
      >
        {t("app:dataRights.export")}
      </Button>
      {jobs.length > 0 && (
        <List
          size="small"
          style={{ marginTop: 16 }}
          dataSource={jobs}
          renderItem={(job) => (
            <List.Item key={job.id} data-testid="data-export-job">
              <Space orientation="vertical" style={{ width: "100%" }}>
                <span>
                  {formatDate(job.requested_at, lang)} · {t(`app:dataRights.status.${job.status}`)}
                </span>
                {job.status !== "failed" && (
                  <Progress percent={job.progress} size="small" aria-label={t("app:dataRights.progress")} />
                )}
              </Space>
            </List.Item>
          )}
        />
      )}
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 24 }}>
        {t("app:dataRights.deleteTitle")}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t("app:dataRights.deleteText")}</Typography.Paragraph>
      <Button
        danger
        icon={<DeleteOutlined />}
        onClick={() => setConfirming(true)}
        data-testid="account-delete"
      >
        {t("app:dataRights.delete")}
      </Button>
      <Modal
        open={confirming}
        title={t("app:dataRights.confirmTitle")}
        okText={t("app:dataRights.confirm")}
        okButtonProps={{ danger: true, loading: deleting, id: "account-delete-confirm" }}
        cancelText={t("common:actions.cancel")}
        onOk={() => form.submit()}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <Alert type="warning" showIcon title={t("app:dataRights.confirmText")} style={{ marginBottom: 16 }} />
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void erase(values)}>
          <Form.Item
            label={t("app:dataRights.password")}
            name="password"
            rules={[{ required: true, message: t("app:dataRights.passwordRequired") }]}
          >
            <Input.Password autoComplete="current-password" data-testid="account-delete-password" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
