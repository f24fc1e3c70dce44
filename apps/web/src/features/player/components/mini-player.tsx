import { CaretRightOutlined, CloseOutlined, PauseOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSession } from "@/lib/session";
import { useMediaSession } from "../hooks/use-media-session";
import {
  currentHandoff,
  type Handoff,
  listenTo,
  setHandoff,
  sharedAudio,
  useHandoff,
} from "../lib/now-playing";
import { clampTime, formatClock, isNearEnd } from "../lib/time";
import "../player.css";

const SAVE_EVERY_MS = 10_000;

/**
 * The bar at the bottom of every page while a lesson plays away from its page: the lesson
 * (a link back to it), play/pause, progress and a close button. It saves the position as the
 * lesson page does and marks the lesson done when it ends.
 */
export default function MiniPlayer() {
  const handoff = useHandoff();
  const { status } = useSession();
  // signing out stops the lesson
  useEffect(() => {
    if (status === "anonymous" && currentHandoff()) {
      sharedAudio().pause();
      setHandoff(null);
    }
  }, [status]);
  if (!handoff || status !== "authenticated") return null;
  return <Bar key={handoff.lessonId} handoff={handoff} />;
}

function Bar({ handoff }: { handoff: Handoff }) {
  const { t } = useTranslation();
  const [audio] = useState(sharedAudio);
  const audioRef = useRef<HTMLAudioElement | null>(audio);
  const [playing, setPlaying] = useState(!audio.paused);
  const [time, setTime] = useState(audio.currentTime);
  const [duration, setDuration] = useState(Number.isFinite(audio.duration) ? audio.duration : 0);
  const finished = useRef(false);

  const seek = useCallback(
    (to: number) => {
      audio.currentTime = clampTime(to, audio.duration);
    },
    [audio],
  );

  useEffect(() => {
    const stopListening = listenTo(audio, {
      play: () => setPlaying(true),
      pause: () => {
        setPlaying(false);
        handoff.save(audio.currentTime, "pause");
      },
      timeupdate: () => {
        setTime(audio.currentTime);
        if (!finished.current && isNearEnd(audio.currentTime, audio.duration)) {
          finished.current = true;
          handoff.finish();
        }
      },
      durationchange: () => {
        if (Number.isFinite(audio.duration)) setDuration(audio.duration);
      },
      ended: () => {
        setPlaying(false);
        handoff.save(audio.currentTime, "end");
      },
      // the signed URL expired: a fresh one, from where it stopped
      error: () => {
        const at = audio.currentTime;
        void handoff.refresh().then((url) => {
          if (!url) return;
          audio.src = url;
          audio.addEventListener(
            "loadedmetadata",
            () => {
              audio.currentTime = at;
              void audio.play().catch(() => undefined);
            },
            { once: true },
          );
        });
      },
    });
    const saver = setInterval(() => {
      if (!audio.paused) handoff.save(audio.currentTime, "interval");
    }, SAVE_EVERY_MS);
    const onPageHide = () => handoff.save(audio.currentTime, "unload");
    window.addEventListener("pagehide", onPageHide);
    return () => {
      stopListening();
      clearInterval(saver);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [audio, handoff]);

  useMediaSession(audioRef, {
    title: handoff.title,
    subtitle: handoff.subtitle,
    artwork: handoff.artwork,
    seek,
    secondTick: Math.floor(time),
  });

  const close = () => {
    audio.pause();
    handoff.save(audio.currentTime, "pause");
    setHandoff(null);
  };
  const percent = duration > 0 ? Math.min(100, (time / duration) * 100) : 0;

  return (
    <>
      <div className="mini-player-spacer" aria-hidden="true" />
      <section className="mini-player" data-testid="mini-player" aria-label={t("player:mini.label")}>
        <div
          className="mini-player__progress"
          role="progressbar"
          aria-label={t("player:seek")}
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(time)}
          aria-valuetext={t("player:timeOf", { current: formatClock(time), total: formatClock(duration) })}
        >
          <span style={{ width: `${percent}%` }} />
        </div>
        <Button
          shape="circle"
          type="primary"
          icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
          aria-label={playing ? t("player:pause") : t("player:play")}
          data-testid="mini-player-toggle"
          onClick={() => {
            if (audio.paused) void audio.play().catch(() => undefined);
            else audio.pause();
          }}
        />
        <Link to={handoff.path} className="mini-player__title" data-testid="mini-player-open">
          <strong>{handoff.title}</strong>
          <span>{handoff.subtitle}</span>
        </Link>
        <span className="mini-player__time" aria-hidden="true">
          {formatClock(time)} / {formatClock(duration)}
        </span>
        <Button
          type="text"
          icon={<CloseOutlined />}
          aria-label={t("player:mini.close")}
          data-testid="mini-player-close"
          onClick={close}
        />
      </section>
    </>
  );
}
