import {
  AudioOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  RedoOutlined,
  SoundOutlined,
} from "@ant-design/icons";
import { MAX_RECORDING_SECONDS } from "@parlons/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Modal, Popconfirm, Space, Tag, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { sharedAudio } from "@/components/player/lib/now-playing";
import {
  deleteKeptRecording,
  keepRecording,
  keptRecordingAudio,
  lessonRecordingsQuery,
  recordingKeys,
} from "@/features/lessons/api/recordings-api";
import {
  canRecord,
  type MicProblem,
  micProblemOf,
  recordingKey,
  recordingMimeType,
} from "@/features/lessons/lib/microphone";
import { type LocalRecording, localRecordings } from "@/features/lessons/lib/recordings-store";
import { drawPeaks, normalise, peaksOf, segmentSamples } from "@/features/lessons/lib/waveform";
import { errorText } from "@/lib/api";
import { currentUserId } from "@/lib/session";
import "./speak.css";

export interface SpeakLine {
  cueId: string;
  lessonId: string;
  text: string;
  start: number;
  end: number;
  /** The lesson's (signed) audio URL. */
  src: string;
}

type Phase = "idle" | "listening" | "recording" | "comparing" | "ready";
const BUCKETS = 120;

// the lesson's audio decoded once per page, shared by every line
const decoded = new Map<string, Promise<AudioBuffer | null>>();
function decodeOriginal(ctx: AudioContext, src: string): Promise<AudioBuffer | null> {
  let found = decoded.get(src);
  if (!found) {
    found = fetch(src, { credentials: "include" })
      .then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(new Error(String(res.status)))))
      .then((bytes) => ctx.decodeAudioData(bytes))
      .catch(() => null);
    decoded.set(src, found);
  }
  return found;
}

function Wave({ peaks, label, testId }: { peaks: number[] | null; label: string; testId: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (canvas && peaks) drawPeaks(canvas, peaks, getComputedStyle(canvas).color || "#1677ff");
  }, [peaks]);
  return (
    <figure className="speak__wave">
      <figcaption>{label}</figcaption>
      <canvas
        ref={ref}
        className={`speak__canvas speak__canvas--${testId}`}
        width={480}
        height={56}
        role="img"
        aria-label={label}
        data-testid={`wave-${testId}`}
        data-drawn={peaks ? "true" : "false"}
      />
    </figure>
  );
}

/**
 * "Repeat after me" on one line: plays the line, records the learner (MediaRecorder), then plays
 * the line and the recording one after the other, with the waveform of both (Web Audio's
 * decodeAudioData, peaks drawn on a canvas). The recording stays in this browser (IndexedDB)
 * unless the learner keeps it on their account.
 */
export default function SpeakDialog({ line, onClose }: { line: SpeakLine; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>("idle");
  const [problem, setProblem] = useState<MicProblem | null>(null);
  const [recording, setRecording] = useState<LocalRecording | null>(null);
  const [originalPeaks, setOriginalPeaks] = useState<number[] | null>(null);
  const [recordedPeaks, setRecordedPeaks] = useState<number[] | null>(null);
  const [seconds, setSeconds] = useState(0);
  const key = recordingKey(currentUserId() ?? "anonymous", line.lessonId, line.cueId);
  const kept = useQuery(lessonRecordingsQuery(line.lessonId)).data?.find((r) => r.cue_id === line.cueId);

  const ctxRef = useRef<AudioContext | null>(null);
  const originalRef = useRef<AudioBuffer | null>(null);
  const recordedRef = useRef<AudioBuffer | null>(null);
  const playingRef = useRef<{ stop: () => void } | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const alive = useRef(true);

  const context = useCallback(() => {
    ctxRef.current ??= new AudioContext();
    void ctxRef.current.resume();
    return ctxRef.current;
  }, []);

  /** Plays a decoded sound (or a part of it); resolves when it ends or is stopped. */
  const playBuffer = useCallback(
    (buffer: AudioBuffer, offset = 0, duration?: number) =>
      new Promise<void>((resolve) => {
        const ctx = context();
        const node = ctx.createBufferSource();
        node.buffer = buffer;
        node.connect(ctx.destination);
        node.onended = () => resolve();
        playingRef.current = { stop: () => node.stop() };
        node.start(0, offset, duration);
      }),
    [context],
  );

  /** The line as the lesson says it: from the decoded lesson, else through an audio element. */
  const playOriginal = useCallback(async () => {
    const buffer = originalRef.current;
    if (buffer) return playBuffer(buffer, line.start, Math.max(0.1, line.end - line.start));
    await new Promise<void>((resolve) => {
      const el = new Audio(line.src);
      const done = () => {
        el.pause();
        resolve();
      };
      el.addEventListener("timeupdate", () => el.currentTime >= line.end && done());
      el.addEventListener("ended", done);
      el.addEventListener("error", done);
      el.addEventListener("loadedmetadata", () => {
        el.currentTime = line.start;
        void el.play().catch(done);
      });
      playingRef.current = { stop: done };
    });
  }, [line, playBuffer]);

  const showRecording = useCallback(
    async (blob: Blob) => {
      try {
        const buffer = await context().decodeAudioData(await blob.arrayBuffer());
        recordedRef.current = buffer;
        setRecordedPeaks(normalise(peaksOf(buffer.getChannelData(0), BUCKETS)));
      } catch {
        recordedRef.current = null;
        setRecordedPeaks(null);
      }
    },
    [context],
  );

  // the lesson's waveform, and a recording made before (this device, else the account)
  useEffect(() => {
    alive.current = true;
    const ctx = context();
    void decodeOriginal(ctx, line.src).then((buffer) => {
      if (!alive.current || !buffer) return;
      originalRef.current = buffer;
      setOriginalPeaks(normalise(peaksOf(segmentSamples(buffer, line.start, line.end), BUCKETS)));
    });
    void localRecordings
      .get(key)
      .catch(() => undefined)
      .then((found) => {
        if (!alive.current || !found) return;
        setRecording(found);
        setPhase("ready");
        void showRecording(found.blob);
      });
    return () => {
      alive.current = false;
      playingRef.current?.stop();
      if (recorderRef.current?.state === "recording") recorderRef.current.stop();
      for (const track of streamRef.current?.getTracks() ?? []) track.stop();
      void ctxRef.current?.close();
      ctxRef.current = null;
    };
  }, [context, key, line.src, line.start, line.end, showRecording]);

  const compare = useCallback(async () => {
    setPhase("comparing");
    await playOriginal();
    if (alive.current && recordedRef.current) await playBuffer(recordedRef.current);
    if (alive.current) setPhase("ready");
  }, [playOriginal, playBuffer]);

  const start = useCallback(async () => {
    setProblem(null);
    if (!canRecord()) return setProblem("unsupported");
    sharedAudio().pause();
    let stream: MediaStream;
    try {
      // the microphone first: a refusal is explained before the learner speaks for nothing
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      return setProblem(micProblemOf(error));
    }
    streamRef.current = stream;
    setPhase("listening");
    await playOriginal();
    if (!alive.current) return;
    let recorder: MediaRecorder;
    try {
      const mimeType = recordingMimeType((type) => MediaRecorder.isTypeSupported(type));
      recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      setPhase("idle");
      return setProblem(micProblemOf(error));
    }
    const chunks: Blob[] = [];
    const startedAt = Date.now();
    const timer = window.setInterval(() => {
      const elapsed = Math.floor((Date.now() - startedAt) / 1000);
      setSeconds(elapsed);
      if (elapsed >= MAX_RECORDING_SECONDS && recorder.state === "recording") recorder.stop();
    }, 250);
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      window.clearInterval(timer);
      for (const track of stream.getTracks()) track.stop();
      if (!alive.current) return;
      const mimeType = recorder.mimeType || chunks[0]?.type || "audio/webm";
      const blob = new Blob(chunks, { type: mimeType });
      const made: LocalRecording = { key, blob, mimeType, recordedAt: Date.now() };
      setRecording(made);
      void localRecordings.put(made).catch(() => undefined);
      void showRecording(blob).then(compare);
    };
    recorderRef.current = recorder;
    setSeconds(0);
    recorder.start();
    setPhase("recording");
  }, [playOriginal, key, showRecording, compare]);

  const stop = () => {
    if (recorderRef.current?.state === "recording") recorderRef.current.stop();
  };

  const invalidate = () => queryClient.invalidateQueries({ queryKey: recordingKeys.lesson(line.lessonId) });
  const keep = useMutation({
    mutationFn: () => keepRecording(line.cueId, recording?.blob as Blob, recording?.mimeType ?? "audio/webm"),
    onSuccess: () => {
      message.success(t("player:speak.keptDone"));
      void invalidate();
    },
    onError: (error) => message.error(errorText(error)),
  });
  const unkeep = useMutation({
    mutationFn: (id: string) => deleteKeptRecording(id),
    onSuccess: () => {
      message.success(t("player:speak.unkept"));
      void invalidate();
    },
  });
  const fromAccount = useMutation({
    mutationFn: (id: string) => keptRecordingAudio(id),
    onSuccess: async (blob) => {
      const made: LocalRecording = { key, blob, mimeType: blob.type, recordedAt: Date.now() };
      setRecording(made);
      await localRecordings.put(made).catch(() => undefined);
      await showRecording(blob);
      void compare();
    },
  });

  const forget = async () => {
    playingRef.current?.stop();
    await localRecordings.delete(key).catch(() => undefined);
    setRecording(null);
    setRecordedPeaks(null);
    recordedRef.current = null;
    setPhase("idle");
  };

  const busy = phase === "listening" || phase === "recording" || phase === "comparing";
  const status =
    phase === "listening"
      ? t("player:speak.listening")
      : phase === "recording"
        ? t("player:speak.recording", { seconds, max: MAX_RECORDING_SECONDS })
        : phase === "comparing"
          ? t("player:speak.comparing")
          : recording
            ? t("player:speak.ready")
            : t("player:speak.intro");

  return (
    <Modal
      open
      onCancel={onClose}
      title={t("player:speak.title")}
      footer={null}
      destroyOnHidden
      data-testid="speak-dialog"
    >
      <Typography.Paragraph className="speak__line" lang="" strong>
        {line.text}
      </Typography.Paragraph>
      <div
        className="speak__status"
        role="status"
        aria-live="polite"
        data-testid="speak-status"
        data-phase={phase}
      >
        {phase === "recording" && <span className="speak__dot" aria-hidden="true" />}
        {status}
      </div>
      {problem && (
        <div className="speak__problem" role="alert" data-testid="speak-problem">
          <strong>{t(`player:speak.problem.${problem}.title`)}</strong>
          <p>{t(`player:speak.problem.${problem}.how`)}</p>
        </div>
      )}
      <Wave peaks={originalPeaks} label={t("player:speak.original")} testId="original" />
      <Wave peaks={recordedPeaks} label={t("player:speak.yours")} testId="recording" />
      <Space wrap className="speak__actions">
        {phase === "recording" ? (
          <Button type="primary" danger onClick={stop} data-testid="speak-stop" autoFocus>
            {t("player:speak.stop")}
          </Button>
        ) : (
          <Button
            type={recording ? "default" : "primary"}
            icon={recording ? <RedoOutlined /> : <AudioOutlined />}
            onClick={() => void start()}
            disabled={busy}
            data-testid="speak-start"
          >
            {recording ? t("player:speak.again") : t("player:speak.start")}
          </Button>
        )}
        {recording && (
          <Button
            icon={<SoundOutlined />}
            onClick={() => void compare()}
            disabled={busy || !recordedRef.current}
            data-testid="speak-compare"
          >
            {t("player:speak.playBoth")}
          </Button>
        )}
        {!recording && kept && (
          <Button onClick={() => fromAccount.mutate(kept.id)} loading={fromAccount.isPending} disabled={busy}>
            {t("player:speak.fromAccount")}
          </Button>
        )}
      </Space>
      {recording && (
        <div className="speak__keep">
          <Typography.Paragraph type="secondary">{t("player:speak.onDevice")}</Typography.Paragraph>
          <Space wrap>
            <Button
              icon={<CloudUploadOutlined />}
              onClick={() => keep.mutate()}
              loading={keep.isPending}
              disabled={busy}
              data-testid="speak-keep"
            >
              {kept ? t("player:speak.keepAgain") : t("player:speak.keep")}
            </Button>
            <Button icon={<DeleteOutlined />} onClick={() => void forget()} disabled={busy}>
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
    </Modal>
  );
}
