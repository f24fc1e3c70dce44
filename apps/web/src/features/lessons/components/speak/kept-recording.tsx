import { CloudUploadOutlined, DeleteOutlined } from "@ant-design/icons";
import { App, Button, Popconfirm, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useDeleteKeptRecording, useKeepRecording } from "@/features/lessons/api/recordings-api";
import type { LocalRecording } from "@/features/lessons/lib/recordings-store";
import { errorText } from "@/lib/api-error";

interface Props {
  lessonId: string;
  cueId: string;
  /** the recording on this device, if any */
  recording: LocalRecording | null;
  /** the one kept on the account, if any */
  kept: { id: string } | undefined;
  busy: boolean;
  onForget: () => void;
}

/** Keeping the recording on the account (or deleting it there), and forgetting it on this device. */
export function KeptRecording({ lessonId, cueId, recording, kept, busy, onForget }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const keep = useKeepRecording(lessonId, cueId, {
    onSuccess: () => void message.success(t("player:speak.keptDone")),
    onError: (error) => void message.error(errorText(error)),
  });
  const unkeep = useDeleteKeptRecording(lessonId, {
    onSuccess: () => void message.success(t("player:speak.unkept")),
  });
  return (
    <>
      {recording && (
        <div className="speak__keep">
          <Typography.Paragraph type="secondary">{t("player:speak.onDevice")}</Typography.Paragraph>
          <Space wrap>
            <Button
              icon={<CloudUploadOutlined />}
              onClick={() => keep.mutate({ blob: recording.blob, mimeType: recording.mimeType })}
              loading={keep.isPending}
              disabled={busy}
              data-testid="speak-keep"
            >
              {kept ? t("player:speak.keepAgain") : t("player:speak.keep")}
            </Button>
            <Button icon={<DeleteOutlined />} onClick={onForget} disabled={busy}>
              {t("player:speak.forget")}
            </Button>
          </Space>
        </div>
      )}
      {kept && (
        <div className="speak__kept" data-testid="speak-kept">
          <Tag color="green">{t("player:speak.kept")}</Tag>
          <Popconfirm
            title={t("player:speak.unkeepConfirm")}
            okText={t("player:speak.unkeep")}
            cancelText={t("common:actions.cancel")}
            onConfirm={() => unkeep.mutate(kept.id)}
          >
            <Button type="link" size="small" danger loading={unkeep.isPending}>
              {t("player:speak.unkeep")}
            </Button>
          </Popconfirm>
        </div>
      )}
    </>
  );
}
