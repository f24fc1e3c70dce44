import { Slider } from "antd";
import { useTranslation } from "react-i18next";
import { type AbLoop, isLoopActive } from "../lib/ab-loop";
import { formatClock } from "../lib/time";

interface Props {
  time: number;
  total: number;
  loop: AbLoop;
  onSeek: (to: number) => void;
}

/** The seek bar (with the A and B marks of a loop) and the "0:42 / 3:10" clock. */
export function PlayerTimeline({ time, total, loop, onSeek }: Props) {
  const { t } = useTranslation();
  return (
    <div className="player__timeline">
      <Slider
        className="player__seek"
        min={0}
        max={Math.max(total, 0.1)}
        step={0.1}
        value={Math.min(time, total || time)}
        onChange={(v) => onSeek(v as number)}
        tooltip={{ formatter: (v) => formatClock(v ?? 0) }}
        ariaLabelForHandle={t("player:seek")}
        ariaValueTextFormatterForHandle={() =>
          t("player:timeOf", { current: formatClock(time), total: formatClock(total) })
        }
        marks={
          isLoopActive(loop)
            ? { [loop.a]: "A", [loop.b]: "B" }
            : loop.a !== null
              ? { [loop.a]: "A" }
              : undefined
        }
      />
      <span className="player__time" data-testid="player-time" aria-live="off">
        {formatClock(time)} / {formatClock(total)}
      </span>
    </div>
  );
}
