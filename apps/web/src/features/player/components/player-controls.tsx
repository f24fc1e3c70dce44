import {
  CaretRightFilled,
  MutedOutlined,
  PauseOutlined,
  QuestionCircleOutlined,
  RetweetOutlined,
  SoundOutlined,
} from "@ant-design/icons";
import { Button, Select, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { useFormat } from "@/lib/format";
import type { AudioEngine } from "../hooks/use-audio-engine";
import { isLoopActive } from "../lib/ab-loop";
import { SPEEDS } from "../lib/speed";
import { formatClock } from "../lib/time";

interface Props {
  engine: AudioEngine;
  /** The repeat-after-me button only makes sense with several cues. */
  canRepeat: boolean;
  onHelp: () => void;
}

/** Transport (skips and play/pause) and tools (speed, mute, A–B loop, repeat, shortcuts). */
export function PlayerControls({ engine, canRepeat, onHelp }: Props) {
  const { t } = useTranslation();
  const format = useFormat();
  const { playing, time, rate, muted, loop, repeat } = engine.state;
  const { seek, toggle, changeRate, toggleMute, markLoop, toggleRepeat } = engine.actions;
  const loopLabel =
    loop.a === null
      ? t("player:loopSetA")
      : loop.b === null
        ? t("player:loopSetB", { a: formatClock(loop.a) })
        : t("player:loopClear", { a: formatClock(loop.a), b: formatClock(loop.b) });
  const skip = (seconds: number, key: string, label: string) => (
    <Tooltip title={t(key)}>
      <Button shape="round" onClick={() => seek(time + seconds)} aria-label={t(key)}>
        {label}
      </Button>
    </Tooltip>
  );

  return (
    <div className="player__controls">
      <fieldset className="player__transport">
        <legend className="visually-hidden">{t("player:transport")}</legend>
        {skip(-10, "player:back10", "−10")}
        {skip(-5, "player:back5", "−5")}
        <Button
          type="primary"
          shape="circle"
          size="large"
          className="player__play"
          onClick={toggle}
          aria-label={playing ? t("player:pause") : t("player:play")}
          data-testid="player-play"
          data-playing={playing}
          icon={playing ? <PauseOutlined /> : <CaretRightFilled />}
        />
        {skip(5, "player:forward5", "+5")}
        {skip(10, "player:forward10", "+10")}
      </fieldset>

      <div className="player__tools">
        <span className="player__speed">
          <span>{t("player:speed")}</span>
          <Select
            value={rate}
            onChange={changeRate}
            options={SPEEDS.map((s) => ({ value: s, label: format.speed(s) }))}
            popupMatchSelectWidth={false}
            aria-label={t("player:speed")}
            data-testid="player-speed"
            style={{ width: 90 }}
          />
        </span>
        <Button
          onClick={toggleMute}
          aria-pressed={muted}
          aria-label={muted ? t("player:unmute") : t("player:mute")}
          icon={muted ? <MutedOutlined /> : <SoundOutlined />}
        />
        <Button
          onClick={markLoop}
          aria-label={loopLabel}
          data-testid="player-loop"
          type={isLoopActive(loop) ? "primary" : "default"}
        >
          {loop.a === null ? "A–B" : loop.b === null ? "A… B?" : "A–B ✕"}
        </Button>
        {canRepeat && (
          <Button
            onClick={toggleRepeat}
            aria-pressed={repeat}
            type={repeat ? "primary" : "default"}
            icon={<RetweetOutlined />}
            data-testid="player-repeat"
          >
            {t("player:repeat")}
          </Button>
        )}
        <Button
          onClick={onHelp}
          aria-label={t("player:shortcuts.open")}
          icon={<QuestionCircleOutlined />}
          data-testid="player-help"
        />
      </div>
    </div>
  );
}
