import { AudioOutlined, RedoOutlined, SoundOutlined } from "@ant-design/icons";
import { MAX_RECORDING_SECONDS } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Button, Modal, Space, Typography } from "antd";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { lessonRecordingsQuery, useFromAccount } from "@/features/lessons/api/recordings-api";
import { recordingKey } from "@/features/lessons/lib/microphone";
import { normalise, peaksOf, segmentSamples } from "@/features/lessons/lib/waveform";
import { sharedAudio } from "@/features/player/lib/now-playing";
import { currentUserId } from "@/lib/session";
import { type SpeakLine, useLineAudio } from "./hooks/use-line-audio";
import { useMicrophone } from "./hooks/use-microphone";
import { usePronunciation } from "./hooks/use-pronunciation";
import { useRecording } from "./hooks/use-recording";
import { KeptRecording } from "./kept-recording";
import { PronunciationPanel } from "./pronunciation-result";
import { Wave } from "./wave";
import "./speak.css";

type Phase = "idle" | "listening" | "recording" | "comparing";
const BUCKETS = 120;

/**
 * "Repeat after me" on one line: plays the line, records the learner, then plays the line and the
 * recording one after the other with the waveform of both, and scores how close the recording is
 * to the line's voice (in a worker, on this device). The recording stays in this browser
 * (IndexedDB) unless the learner keeps it on their account.
 */
export default function SpeakDialog({ line, onClose }: { line: SpeakLine; onClose: () => void }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>("idle");
  const key = recordingKey(currentUserId() ?? "anonymous", line.lessonId, line.cueId);
  const kept = useQuery(lessonRecordingsQuery(line.lessonId)).data?.find((r) => r.cue_id === line.cueId);
  const audio = useLineAudio(line);
  const mic = useMicrophone();
  const mine = useRecording(key, audio.decode);
  const analysis = usePronunciation(line, audio.original, mine.sound);

  const originalPeaks = useMemo(
    () =>
      audio.original
        ? normalise(peaksOf(segmentSamples(audio.original, line.start, line.end), BUCKETS))
        : null,
    [audio.original, line.start, line.end],
  );
  const recordedPeaks = useMemo(
    () => (mine.sound ? normalise(peaksOf(mine.sound.getChannelData(0), BUCKETS)) : null),
    [mine.sound],
  );

  const compare = useCallback(
    async (sound: AudioBuffer | null) => {
      setPhase("comparing");
      await audio.playLine();
      if (sound) await audio.play(sound);
      setPhase("idle");
    },
    [audio.playLine, audio.play],
  );

  const start = async () => {
    sharedAudio().pause();
    if (!(await mic.open())) return;
    setPhase("listening");
    await audio.playLine();
    const recording = mic.record((blob, mimeType) => {
      void mine.show({ key, blob, mimeType, recordedAt: Date.now() }).then(compare);
    });
    setPhase(recording ? "recording" : "idle");
  };

  const fromAccount = useFromAccount((blob) => {
    void mine.show({ key, blob, mimeType: blob.type, recordedAt: Date.now() }).then(compare);
  });

  const forget = () => {
    audio.stop();
    void mine.forget();
    setPhase("idle");
  };

  const busy = phase !== "idle";
  const shownPhase = phase === "idle" && mine.recording ? "ready" : phase;
  const status =
    phase === "listening"
      ? t("player:speak.listening")
      : phase === "recording"
        ? t("player:speak.recording", { seconds: mic.seconds, max: MAX_RECORDING_SECONDS })
        : phase === "comparing"
          ? t("player:speak.comparing")
          : mine.recording
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
        data-phase={shownPhase}
      >
        {phase === "recording" && <span className="speak__dot" aria-hidden="true" />}
        {status}
      </div>
      {mic.problem && (
        <div className="speak__problem" role="alert" data-testid="speak-problem">
          <strong>{t(`player:speak.problem.${mic.problem}.title`)}</strong>
          <p>{t(`player:speak.problem.${mic.problem}.how`)}</p>
        </div>
      )}
      <Wave peaks={originalPeaks} label={t("player:speak.original")} testId="original" />
      <Wave peaks={recordedPeaks} label={t("player:speak.yours")} testId="recording" />
      <Space wrap className="speak__actions">
        {phase === "recording" ? (
          <Button type="primary" danger onClick={mic.stop} data-testid="speak-stop" autoFocus>
            {t("player:speak.stop")}
          </Button>
        ) : (
          <Button
            type={mine.recording ? "default" : "primary"}
            icon={mine.recording ? <RedoOutlined /> : <AudioOutlined />}
            onClick={() => void start()}
            disabled={busy}
            data-testid="speak-start"
          >
            {mine.recording ? t("player:speak.again") : t("player:speak.start")}
          </Button>
        )}
        {mine.recording && (
          <Button
            icon={<SoundOutlined />}
            onClick={() => void compare(mine.sound)}
            disabled={busy || !mine.sound}
            data-testid="speak-compare"
          >
            {t("player:speak.playBoth")}
          </Button>
        )}
        {!mine.recording && kept && (
          <Button onClick={() => fromAccount.mutate(kept.id)} loading={fromAccount.isPending} disabled={busy}>
            {t("player:speak.fromAccount")}
          </Button>
        )}
      </Space>
      <PronunciationPanel analysis={analysis} />
      <KeptRecording
        lessonId={line.lessonId}
        cueId={line.cueId}
        recording={mine.recording}
        kept={kept}
        busy={busy}
        onForget={forget}
      />
    </Modal>
  );
}
