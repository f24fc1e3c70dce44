import {
  CaretRightFilled,
  MutedOutlined,
  PauseOutlined,
  QuestionCircleOutlined,
  RetweetOutlined,
  SoundOutlined,
} from "@ant-design/icons";
import { Button, Select, Slider, Tag, Tooltip } from "antd";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type AbLoop, isLoopActive, loopJump, NO_LOOP, nextLoopState } from "../lib/ab-loop";
import { cueIndexAt, repeatPauseAfter, type TranscriptCue } from "../lib/cues";
import { actionForKey, isOwnedByControl, isTypingTarget, type PlayerAction } from "../lib/shortcuts";
import { clampSpeed, SPEEDS, speedLabel, stepSpeed } from "../lib/speed";
import { clampTime, formatClock, isNearEnd } from "../lib/time";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { Transcript } from "./transcript";
import "../player.css";

export type PositionReason = "interval" | "pause" | "end" | "unload";

export interface AudioPlayerProps {
  src: string;
  title: string;
  /** Course title: Media Session artist/album. */
  subtitle: string;
  artwork?: string | null;
  cues: readonly TranscriptCue[];
  /** Plain transcript, shown when it has no cue times. */
  transcript?: string | null;
  /** Duration known from the server, shown before the metadata loads. */
  knownDuration?: number | null;
  /** Where to start (the saved resume point). */
  startAt?: number;
  lang: string;
  onPosition?: (seconds: number, reason: PositionReason) => void;
  onFirstPlay?: () => void;
  onNearEnd?: () => void;
  onPrevious?: () => void;
  onNext?: () => void;
  /** The signed URL expired or failed: the page fetches a new one. */
  onSourceError?: () => void;
}

const SAVE_EVERY_MS = 10_000;

/**
 * The lesson player, built for language practice: speeds 0.5–2× keeping the pitch, skips of
 * 5 and 10 s, A–B loop, "repeat after me" pauses after each cue, a clickable transcript,
 * keyboard shortcuts, Media Session, and a resume position reported to the page.
 */
export function AudioPlayer(props: AudioPlayerProps) {
  const { src, title, subtitle, artwork, cues, transcript, knownDuration, startAt = 0, lang } = props;
  const { t } = useTranslation();
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(startAt);
  const [duration, setDuration] = useState(knownDuration ?? 0);
  const [rate, setRate] = useState(1);
  const [muted, setMuted] = useState(false);
  const [loop, setLoop] = useState<AbLoop>(NO_LOOP);
  const [repeat, setRepeat] = useState(false);
  const [repeatWait, setRepeatWait] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [announce, setAnnounce] = useState("");

  // latest values for event handlers and the animation loop
  const live = useRef({ props, loop, repeat, cues });
  useLayoutEffect(() => {
    live.current = { props, loop, repeat, cues };
  });
  const prevTime = useRef(startAt);
  const repeatTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pausingForRepeat = useRef(false);
  const nearEndSent = useRef(false);
  const playedOnce = useRef(false);
  /** Position to restore once metadata loads (start, or after a new signed URL). */
  const pendingSeek = useRef<number | null>(startAt > 0 ? startAt : null);
  const lastSaved = useRef(startAt);

  const report = useCallback((reason: PositionReason) => {
    const el = audioRef.current;
    if (!el) return;
    const at = el.currentTime;
    if (reason !== "end" && Math.abs(at - lastSaved.current) < 0.5) return;
    lastSaved.current = at;
    live.current.props.onPosition?.(at, reason);
  }, []);

  const cancelRepeatWait = useCallback(() => {
    clearTimeout(repeatTimer.current);
    repeatTimer.current = undefined;
    setRepeatWait(false);
  }, []);

  const seek = useCallback(
    (to: number) => {
      const el = audioRef.current;
      if (!el) return;
      cancelRepeatWait();
      const target = clampTime(to, el.duration);
      if (el.readyState === 0) pendingSeek.current = target;
      else el.currentTime = target;
      prevTime.current = target;
      setTime(target);
    },
    [cancelRepeatWait],
  );

  const toggle = useCallback(() => {
    const el = audioRef.current;
    if (!el) return;
    cancelRepeatWait();
    if (el.paused) void el.play().catch(() => undefined);
    else el.pause();
  }, [cancelRepeatWait]);

  const changeRate = useCallback((next: number) => {
    const el = audioRef.current;
    const value = clampSpeed(next);
    if (el) {
      el.preservesPitch = true;
      el.playbackRate = value;
    }
    setRate(value);
  }, []);

  const toggleMute = useCallback(() => {
    const el = audioRef.current;
    if (!el) return;
    el.muted = !el.muted;
    setMuted(el.muted);
  }, []);

  const markLoop = useCallback(() => {
    const el = audioRef.current;
    if (!el) return;
    setLoop((current) => nextLoopState(current, el.currentTime));
  }, []);

  // ---- new lesson: reset the per-lesson state ----
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new src
  useEffect(() => {
    nearEndSent.current = false;
    playedOnce.current = false;
    setLoop(NO_LOOP);
    cancelRepeatWait();
    // a new src (signed URL refresh) keeps the position we had
    return () => {
      const el = audioRef.current;
      if (el && el.currentTime > 0) pendingSeek.current = el.currentTime;
    };
  }, [src, cancelRepeatWait]);

  // ---- the animation loop while playing: time display, A–B loop, repeat pauses, near end ----
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      const el = audioRef.current;
      if (el && !el.paused) {
        const now = el.currentTime;
        const { loop: currentLoop, repeat: repeating, cues: currentCues } = live.current;
        const jump = loopJump(currentLoop, now);
        if (jump !== null) {
          el.currentTime = jump;
          prevTime.current = jump;
        } else {
          const pause =
            repeating && !isLoopActive(currentLoop)
              ? repeatPauseAfter(currentCues, prevTime.current, now, el.duration)
              : null;
          if (pause) {
            pausingForRepeat.current = true;
            el.pause();
            setRepeatWait(true);
            repeatTimer.current = setTimeout(() => {
              repeatTimer.current = undefined;
              setRepeatWait(false);
              void audioRef.current?.play().catch(() => undefined);
            }, pause.pauseMs / el.playbackRate);
          }
          prevTime.current = now;
        }
        setTime((old) => (Math.abs(old - el.currentTime) >= 0.05 ? el.currentTime : old));
        if (!nearEndSent.current && isNearEnd(el.currentTime, el.duration)) {
          nearEndSent.current = true;
          live.current.props.onNearEnd?.();
        }
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    const saver = setInterval(() => report("interval"), SAVE_EVERY_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearInterval(saver);
    };
  }, [playing, report]);

  // ---- save on tab hide / close and when leaving the lesson ----
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") report("unload");
    };
    const onPageHide = () => report("unload");
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
      report("unload");
    };
  }, [report]);

  useEffect(() => () => clearTimeout(repeatTimer.current), []);

  // ---- keyboard shortcuts (document-wide while the player is on the page) ----
  useEffect(() => {
    const run = (action: PlayerAction) => {
      const el = audioRef.current;
      if (!el) return;
      switch (action.type) {
        case "toggle":
          toggle();
          break;
        case "seekBy":
          seek(el.currentTime + action.seconds);
          break;
        case "speed": {
          const next = stepSpeed(el.playbackRate, action.direction);
          changeRate(next);
          setAnnounce(t("player:speedNow", { speed: speedLabel(next, lang) }));
          break;
        }
        case "mute":
          toggleMute();
          break;
        case "seekPercent":
          if (Number.isFinite(el.duration)) seek((el.duration * action.percent) / 100);
          break;
        case "help":
          setHelpOpen(true);
          break;
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const target = event.target as HTMLElement | null;
      if (isTypingTarget(target)) return;
      // keys typed inside a dialog or drawer (ours included) belong to it
      if (helpOpen || target?.closest?.(".ant-modal, .ant-drawer")) return;
      const action = actionForKey(event);
      if (!action || isOwnedByControl(target, action)) return;
      event.preventDefault();
      run(action);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [toggle, seek, changeRate, toggleMute, helpOpen, lang, t]);

  // ---- Media Session: lock screen, headset buttons ----
  useEffect(() => {
    if (!("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({
      title,
      artist: subtitle,
      album: "Parlons",
      artwork: artwork ? [{ src: new URL(artwork, window.location.href).href }] : [],
    });
    const handlers: [MediaSessionAction, MediaSessionActionHandler | null][] = [
      ["play", () => void audioRef.current?.play().catch(() => undefined)],
      ["pause", () => audioRef.current?.pause()],
      ["seekbackward", (d) => seek((audioRef.current?.currentTime ?? 0) - (d.seekOffset ?? 10))],
      ["seekforward", (d) => seek((audioRef.current?.currentTime ?? 0) + (d.seekOffset ?? 10))],
      ["seekto", (d) => d.seekTime !== undefined && seek(d.seekTime)],
      ["previoustrack", props.onPrevious ? () => live.current.props.onPrevious?.() : null],
      ["nexttrack", props.onNext ? () => live.current.props.onNext?.() : null],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // action not supported by this browser
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // ignore
        }
      }
      session.metadata = null;
    };
  }, [title, subtitle, artwork, seek, props.onPrevious, props.onNext]);

  const secondTick = Math.floor(time);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once a second is plenty for the lock screen
  useEffect(() => {
    const el = audioRef.current;
    if (!el || !("mediaSession" in navigator) || !Number.isFinite(el.duration) || el.duration <= 0) return;
    try {
      navigator.mediaSession.setPositionState({
        duration: el.duration,
        playbackRate: el.playbackRate,
        position: Math.min(el.currentTime, el.duration),
      });
    } catch {
      // ignore invalid states during seeks
    }
  }, [secondTick]);

  const currentCue = cueIndexAt(cues, time);
  const loopLabel =
    loop.a === null
      ? t("player:loopSetA")
      : loop.b === null
        ? t("player:loopSetB", { a: formatClock(loop.a) })
        : t("player:loopClear", { a: formatClock(loop.a), b: formatClock(loop.b) });
  const total = duration || knownDuration || 0;

  return (
    <section className="player" data-testid="player" aria-label={t("player:label", { title })}>
      {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the text alternative */}
      <audio
        ref={audioRef}
        src={src}
        preload="metadata"
        onLoadedMetadata={(e) => {
          const el = e.currentTarget;
          el.preservesPitch = true;
          el.playbackRate = rate;
          setDuration(el.duration);
          if (pendingSeek.current !== null) {
            el.currentTime = clampTime(pendingSeek.current, el.duration);
            prevTime.current = el.currentTime;
            lastSaved.current = el.currentTime;
            setTime(el.currentTime);
            pendingSeek.current = null;
          }
        }}
        onDurationChange={(e) =>
          Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)
        }
        onPlay={() => {
          setPlaying(true);
          if (!playedOnce.current) {
            playedOnce.current = true;
            live.current.props.onFirstPlay?.();
          }
        }}
        onPause={() => {
          setPlaying(false);
          setTime(audioRef.current?.currentTime ?? 0);
          if (pausingForRepeat.current) pausingForRepeat.current = false;
          else report("pause");
        }}
        onEnded={() => {
          setPlaying(false);
          report("end");
          if (!nearEndSent.current) {
            nearEndSent.current = true;
            live.current.props.onNearEnd?.();
          }
        }}
        onSeeked={(e) => setTime(e.currentTarget.currentTime)}
        onVolumeChange={(e) => setMuted(e.currentTarget.muted)}
        onRateChange={(e) => setRate(e.currentTarget.playbackRate)}
        onError={() => live.current.props.onSourceError?.()}
      />

      <div className="player__timeline">
        <Slider
          className="player__seek"
          min={0}
          max={Math.max(total, 0.1)}
          step={0.1}
          value={Math.min(time, total || time)}
          onChange={(v) => seek(v as number)}
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

      <div className="player__controls">
        <fieldset className="player__transport">
          <legend className="visually-hidden">{t("player:transport")}</legend>
          <Tooltip title={t("player:back10")}>
            <Button shape="round" onClick={() => seek(time - 10)} aria-label={t("player:back10")}>
              −10
            </Button>
          </Tooltip>
          <Tooltip title={t("player:back5")}>
            <Button shape="round" onClick={() => seek(time - 5)} aria-label={t("player:back5")}>
              −5
            </Button>
          </Tooltip>
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
          <Tooltip title={t("player:forward5")}>
            <Button shape="round" onClick={() => seek(time + 5)} aria-label={t("player:forward5")}>
              +5
            </Button>
          </Tooltip>
          <Tooltip title={t("player:forward10")}>
            <Button shape="round" onClick={() => seek(time + 10)} aria-label={t("player:forward10")}>
              +10
            </Button>
          </Tooltip>
        </fieldset>

        <div className="player__tools">
          <span className="player__speed">
            <span>{t("player:speed")}</span>
            <Select
              value={rate}
              onChange={changeRate}
              options={SPEEDS.map((s) => ({ value: s, label: speedLabel(s, lang) }))}
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
          {cues.length > 1 && (
            <Button
              onClick={() => {
                cancelRepeatWait();
                setRepeat((r) => !r);
              }}
              aria-pressed={repeat}
              type={repeat ? "primary" : "default"}
              icon={<RetweetOutlined />}
              data-testid="player-repeat"
            >
              {t("player:repeat")}
            </Button>
          )}
          <Button
            onClick={() => setHelpOpen(true)}
            aria-label={t("player:shortcuts.open")}
            icon={<QuestionCircleOutlined />}
            data-testid="player-help"
          />
        </div>
      </div>

      <div className="player__status" aria-live="polite">
        {repeatWait && <Tag color="blue">{t("player:yourTurn")}</Tag>}
        {isLoopActive(loop) && (
          <Tag color="purple">{t("player:looping", { a: formatClock(loop.a), b: formatClock(loop.b) })}</Tag>
        )}
        <span className="visually-hidden">{announce}</span>
      </div>

      <Transcript cues={cues} text={transcript} current={currentCue} onSeek={(s) => seek(s)} />
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </section>
  );
}
