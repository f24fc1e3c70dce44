import { UploadOutlined } from "@ant-design/icons";
import {
  DEFAULT_UPLOAD_ACCEPT,
  MAX_UPLOAD_BYTES,
  type MediaType,
  type UploadResponse,
} from "@parlons/contract";
import { App, Button, Progress, Space, Upload, type UploadFile } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../lib/api-error";
import { uploadMedia } from "../lib/upload";

interface UploadFieldProps {
  type: MediaType;
  accept?: string;
  /** Called with the server's answer once the file is stored. */
  onUploaded: (result: UploadResponse["data"]) => void;
  testId?: string;
  disabled?: boolean;
}

/**
 * The spec's upload widget: one file, audio/mpeg by default, size checked before sending
 * (100 MB), send button disabled until a file is chosen, progress bar, spec §8 toasts.
 */
export function UploadField({
  type,
  accept = DEFAULT_UPLOAD_ACCEPT,
  onUploaded,
  testId,
  disabled,
}: UploadFieldProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [fileList, setFileList] = useState<UploadFile[]>([]);
  const [percent, setPercent] = useState<number | null>(null);
  const [sending, setSending] = useState(false);

  async function send() {
    if (!file) return;
    setSending(true);
    setPercent(0);
    try {
      const result = await uploadMedia(file, type, setPercent);
      setPercent(100);
      message.success(t("courses:upload.success", { file: file.name }));
      setFileList([]);
      setFile(null);
      onUploaded(result);
    } catch (error) {
      setPercent(null);
      message.error(t("courses:upload.failed", { file: file.name }));
      message.error(
        (error as { status?: number }).status === 413
          ? t("courses:upload.tooLarge")
          : `${t("courses:upload.somethingWrong")} ${errorText(error)}`.trim(),
      );
    } finally {
      setSending(false);
    }
  }

  return (
    <Space orientation="vertical" style={{ width: "100%" }} data-testid={testId}>
      <Space wrap>
        <Upload
          accept={accept}
          maxCount={1}
          multiple={false}
          fileList={fileList}
          disabled={disabled || sending}
          beforeUpload={(chosen) => {
            if (chosen.size >= MAX_UPLOAD_BYTES) {
              message.error(t("courses:upload.tooLarge"));
              return Upload.LIST_IGNORE;
            }
            setFile(chosen);
            setFileList([{ uid: chosen.uid, name: chosen.name, status: "done", size: chosen.size }]);
            setPercent(null);
            return false;
          }}
          onRemove={() => {
            setFile(null);
            setFileList([]);
            setPercent(null);
          }}
        >
          <Button icon={<UploadOutlined />} disabled={disabled || sending}>
            {t("courses:upload.choose")}
          </Button>
        </Upload>
        <Button
          type="primary"
          onClick={send}
          disabled={!file || disabled}
          loading={sending}
          data-testid={testId && `${testId}-send`}
        >
          {t("courses:upload.send")}
        </Button>
      </Space>
      {percent !== null && (
        <Progress percent={percent} size="small" aria-label={t("courses:upload.progress")} />
      )}
    </Space>
  );
}
