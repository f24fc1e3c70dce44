import { DownloadOutlined } from "@ant-design/icons";
import type { HandsFreeAudioMode, HandsFreeKind } from "@parlons/contract";
import { Alert, Button, Progress, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { saveFile } from "@/lib/download";
import { useLang } from "@/lib/use-locale";
import { downloadHandsFreeSession } from "../api/hands-free-api";

type State =
  | { step: "idle" }
  /** the server renders the session (no length known yet), then the bytes arrive */
  | { step: "loading"; fraction: number | null }
  | { step: "done"; mode: HandsFreeAudioMode; items: number }
  | { step: "failed"; message: string };

/**
 * "Download today's session": the session rendered by the server as one MP3, saved on the device
 * for offline listening. While the server renders it the button says so; then a bar shows the
 * download; at the end a line says what the file holds (prompts spoken, or echoes only where the
 * server has no voice).
 */
export function HandsFreeDownload({ kinds }: { kinds: HandsFreeKind[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [state, setState] = useState<State>({ step: "idle" });
  const loading = state.step === "loading";

  const download = async () => {
    setState({ step: "loading", fraction: null });
    try {
      const result = await downloadHandsFreeSession(kinds, lang, (fraction) =>
        setState({ step: "loading", fraction }),
      );
      saveFile(`parlons-${new Date().toISOString().slice(0, 10)}.mp3`, result.blob);
      setState({ step: "done", mode: result.mode, items: result.items });
    } catch (error) {
      setState({ step: "failed", message: errorText(error) });
    }
  };

  return (
    <div className="hands-free-download" data-testid="hands-free-download">
      <Button
        icon={<DownloadOutlined />}
        loading={loading}
        onClick={() => void download()}
        data-testid="hands-free-download-button"
      >
        {loading
          ? state.fraction === null
            ? t("practice:handsFree.download.preparing")
            : t("practice:handsFree.download.downloading")
          : t("practice:handsFree.download.button")}
      </Button>
      {loading && state.fraction !== null && (
        <Progress
          percent={Math.round(state.fraction * 100)}
          size="small"
          aria-label={t("practice:handsFree.download.progress")}
        />
      )}
      <div aria-live="polite">
        {state.step === "done" && (
          <Typography.Paragraph
            type="secondary"
            data-testid="hands-free-download-done"
            data-mode={state.mode}
          >
            {t(`practice:handsFree.download.${state.mode}`, { count: state.items })}
          </Typography.Paragraph>
        )}
        {state.step === "failed" && (
          <Alert type="warning" showIcon message={state.message} data-testid="hands-free-download-failed" />
        )}
      </div>
    </div>
  );
}
