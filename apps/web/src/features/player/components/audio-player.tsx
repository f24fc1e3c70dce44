import { Tag } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "@/lib/format";
import { type EngineOptions, useAudioEngine } from "../hooks/use-audio-engine";
import { useMediaSession } from "../hooks/use-media-session";
import { usePlayerShortcuts } from "../hooks/use-player-shortcuts";
import { isLoopActive } from "../lib/ab-loop";
import { cueIndexAt, type TranscriptLine } from "../lib/cues";
import { formatClock } from "../lib/time";
import { PlayerControls } from "./player-controls";
import { PlayerTimeline } from "./player-timeline";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { Transcript } from "./transcript";
import type { TranscriptWords } from "./word-line";
import "../player.css";

export type { PositionReason } from "../hooks/use-audio-engine";

export interface AudioPlayerProps extends EngineOptions {
  title: string;
  /** Course title: Media Session artist/album. */
  subtitle: string;
  artwork?: string | null;
  /** Plain transcript, shown when it has no cue times. */
  transcript?: string | null;
  onPrevious?: () => void;
  onNext?: () => void;
  /** Shown beside each transcript line (add it to the review deck). */
  lineAction?: (cue: TranscriptLine) => ReactNode;
  /** The transcript's words as buttons to look up. */
  words?: TranscriptWords;
}

/**
 * The lesson player, built for language practice: speeds 0.5–2× keeping the pitch, skips of
 * 5 and 10 s, A–B loop, "repeat after me" pauses after each cue, a clickable transcript,
 * keyboard shortcuts, Media Session, and a resume position reported to the page. The engine
 * (`useAudioEngine`) owns the audio; this component lays out its parts.
 */
export function AudioPlayer(props: AudioPlayerProps) {
  const { title, subtitle, artwork, cues, transcript, onPrevious, onNext, lineAction, words } = props;
  const { t } = useTranslation();
  const format = useFormat();
  const engine = useAudioEngine(props);
  const { time, duration, loop, repeatWait } = engine.state;
  const { seek } = engine.actions;
  const [helpOpen, setHelpOpen] = useState(false);
  const [announce, setAnnounce] = useState("");

  usePlayerShortcuts(
    engine.audioRef,
    {
      ...engine.actions,
      openHelp: () => setHelpOpen(true),
      announceSpeed: (rate) => setAnnounce(t("player:speedNow", { speed: format.speed(rate) })),
    },
    helpOpen,
  );
  useMediaSession(engine.audioRef, {
    title,
    subtitle,
    artwork,
    seek,
    onPrevious,
    onNext,
    secondTick: Math.floor(time),
  });

  return (
    <section className="player" data-testid="player" aria-label={t("player:label", { title })}>
      <div ref={engine.slotRef} className="player__audio" />
      <PlayerTimeline time={time} total={duration} loop={loop} onSeek={seek} />
      <PlayerControls engine={engine} canRepeat={cues.length > 1} onHelp={() => setHelpOpen(true)} />
      <div className="player__status" aria-live="polite">
        {repeatWait && <Tag color="blue">{t("player:yourTurn")}</Tag>}
        {isLoopActive(loop) && (
          <Tag color="purple">{t("player:looping", { a: formatClock(loop.a), b: formatClock(loop.b) })}</Tag>
        )}
        <span className="visually-hidden">{announce}</span>
      </div>
      <Transcript
        cues={cues}
        text={transcript}
        current={cueIndexAt(cues, time)}
        onSeek={seek}
        lineAction={lineAction}
        words={words}
      />
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </section>
  );
}
