import { AudioOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SpeakLine } from "./hooks/use-line-audio";

// recording, decoding and drawing load with the first "repeat after me", not with the lesson
const SpeakDialog = lazy(() => import("./speak-dialog"));

/** A transcript line's "repeat after me": opens the speaking practice of that line. */
export function SpeakButton({ line }: { line: SpeakLine }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const label = t("player:speak.title");
  return (
    <>
      <Tooltip title={t("player:speak.title")}>
        <Button
          type="text"
          size="small"
          className="transcript__action"
          icon={<AudioOutlined />}
          aria-label={label}
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
          data-testid="speak-line"
        />
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <SpeakDialog line={line} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
