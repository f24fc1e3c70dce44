import { SoundOutlined } from "@ant-design/icons";
import { Button, Space } from "antd";
import { useTranslation } from "react-i18next";

/** Plays the line again, or slower (0.75×, the pitch kept). */
export function ListenButtons({ play, disabled }: { play: (rate?: number) => void; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <Button
        icon={<SoundOutlined aria-hidden />}
        onClick={() => play(1)}
        disabled={disabled}
        data-testid="practice-play"
      >
        {t("practice:listen.again")}
      </Button>
      <Button onClick={() => play(0.75)} disabled={disabled} data-testid="practice-slower">
        {t("practice:listen.slower")}
      </Button>
    </Space>
  );
}
