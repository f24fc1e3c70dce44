import { SoundOutlined } from "@ant-design/icons";
import type { AlignBody, AlignmentJob, LessonItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Divider,
  Form,
  Input,
  Progress,
  Radio,
  Skeleton,
  Space,
  Tag,
  Typography,
} from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import {
  isActive,
  latestAlignmentQuery,
  useAlignLesson,
  useLinesAligned,
  useProposeLines,
} from "../api/alignment-api";

type Split = NonNullable<AlignBody["split"]>;
type Apply = NonNullable<AlignBody["apply"]>;

/** What the latest alignment came to: its mode, time, and the lines worth a look. */
function AlignmentResult({ job }: { job: AlignmentJob }) {
  const { t } = useTranslation();
  if (job.status === "failed")
    return (
      <Alert
        type="error"
        showIcon
        data-testid="align-failed"
        message={t("courses:align.failed")}
        description={t(`errors:${job.error?.code ?? "ALIGNMENT_FAILED"}`, {
          defaultValue: t("errors:ALIGNMENT_FAILED"),
        })}
      />
    );
  if (job.kind === "propose")
    return (
      <Alert
        type="success"
        showIcon
        data-testid="propose-done"
        message={t("courses:propose.done", {
          count: job.lines.length,
          seconds: (job.elapsed ?? 0).toFixed(1),
        })}
        description={t("courses:propose.next")}
      />
    );
  const doubtful = job.lines.map((l, i) => ({ ...l, n: i + 1 })).filter((l) => l.doubtful);
  return (
    <Alert
      type={doubtful.length > 0 ? "warning" : "success"}
      showIcon
      data-testid="align-done"
      message={t("courses:align.done", { count: job.lines.length, seconds: (job.elapsed ?? 0).toFixed(1) })}
      description={
        <Space direction="vertical" size={4}>
          <span>
            <span data-testid="align-mode">
              <Tag>{t(`courses:align.mode.${job.mode ?? "signal"}`)}</Tag>
            </span>
            {t(`courses:align.modeHint.${job.mode ?? "signal"}`)}
          </span>
          {doubtful.length > 0 ? (
            <>
              <span>{t("courses:align.doubtful", { count: doubtful.length })}</span>
              <ul className="align-panel__doubtful" data-testid="align-doubtful">
                {doubtful.map((l) => (
                  <li key={l.n}>
                    {t("courses:align.doubtfulLine", {
                      n: l.n,
                      text: l.text,
                      confidence: Math.round(l.confidence * 100),
                    })}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <span>{t("courses:align.noneDoubtful")}</span>
          )}
        </Space>
      }
    />
  );
}

/**
 * Staff paste the lesson's script and align it to the audio: the lines' times are computed on the
 * server (progress shown while it runs), then written, merged with the lines there or replacing them.
 * Audio without a script: lines proposed at the pauses, their text typed or pasted in the editor.
 */
export function AlignPanel({ courseId, lesson }: { courseId: string; lesson: LessonItem }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const latest = useQuery(latestAlignmentQuery(courseId, lesson.id));
  const align = useAlignLesson(courseId, lesson.id);
  const proposeLines = useProposeLines(courseId, lesson.id);
  const linesAligned = useLinesAligned(courseId);
  const [script, setScript] = useState("");
  const [split, setSplit] = useState<Split>("auto");
  const [apply, setApply] = useState<Apply>(lesson.cues.length > 0 ? "merge" : "replace");
  const job = latest.data;
  const running = isActive(job) || align.isPending || proposeLines.isPending;
  // audio without a script: lines at the pauses, after a confirmation when they would replace some
  const propose = () => {
    if (lesson.cues.length === 0) proposeLines.mutate({ apply: "keep" });
    else
      modal.confirm({
        title: t("courses:propose.replaceTitle"),
        content: t("courses:propose.replaceText", { count: lesson.cues.length }),
        okText: t("courses:propose.replaceOk"),
        okButtonProps: { danger: true },
        onOk: () => proposeLines.mutate({ apply: "replace" }),
      });
  };
  const failure = align.error ?? proposeLines.error;

  // the lines were written when a job seen running is done: the lesson is read again
  const seenRunning = useRef<string | null>(null);
  useEffect(() => {
    if (!job) return;
    if (isActive(job)) seenRunning.current = job.id;
    else if (seenRunning.current === job.id) {
      seenRunning.current = null;
      if (job.status === "done") void linesAligned();
    }
  }, [job, linesAligned]);

  return (
    <Card size="small" title={t("courses:align.title")} data-testid="align-panel" className="align-panel">
      {!lesson.audio_path ? (
        <Alert type="info" showIcon message={t("courses:align.noAudio")} data-testid="align-no-audio" />
      ) : (
        <Form layout="vertical" onFinish={() => align.mutate({ script, split, apply })} disabled={running}>
          <Typography.Paragraph type="secondary">{t("courses:align.hint")}</Typography.Paragraph>
          <Form.Item label={t("courses:align.script")} htmlFor="align-script" required>
            <Input.TextArea
              id="align-script"
              rows={6}
              value={script}
              onChange={(e) => setScript(e.target.value)}
              placeholder={t("courses:align.scriptPlaceholder")}
              data-testid="align-script"
            />
          </Form.Item>
          <Space wrap size="large">
            <Form.Item label={t("courses:align.split")}>
              <Radio.Group value={split} onChange={(e) => setSplit(e.target.value)}>
                <Radio value="auto">{t("courses:align.splitAuto")}</Radio>
                <Radio value="lines">{t("courses:align.splitLines")}</Radio>
                <Radio value="sentences">{t("courses:align.splitSentences")}</Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item label={t("courses:align.apply")}>
              <Radio.Group value={apply} onChange={(e) => setApply(e.target.value)}>
                <Radio value="merge">{t("courses:align.applyMerge")}</Radio>
                <Radio value="replace">{t("courses:align.applyReplace")}</Radio>
              </Radio.Group>
            </Form.Item>
          </Space>
          <Button
            type="primary"
            htmlType="submit"
            loading={running}
            disabled={running || script.trim() === ""}
            data-testid="align-submit"
          >
            {t("courses:align.submit")}
          </Button>
          <Divider plain>{t("courses:propose.or")}</Divider>
          <Typography.Paragraph type="secondary">{t("courses:propose.hint")}</Typography.Paragraph>
          <Button
            icon={<SoundOutlined />}
            onClick={propose}
            loading={proposeLines.isPending}
            disabled={running}
            data-testid="propose-lines"
          >
            {t("courses:propose.submit")}
          </Button>
        </Form>
      )}
      <div className="align-panel__status" aria-live="polite">
        {latest.isPending ? (
          <Skeleton active paragraph={{ rows: 1 }} title={false} />
        ) : latest.isError ? (
          <Alert type="error" showIcon message={errorText(latest.error)} />
        ) : null}
        {failure && <Alert type="error" showIcon message={errorText(failure)} data-testid="align-error" />}
        {job && isActive(job) && (
          <div data-testid="align-progress">
            <Typography.Text>
              {t(
                `courses:${job.kind === "propose" ? "propose" : "align"}.${job.status === "queued" ? "queued" : "running"}`,
              )}
            </Typography.Text>
            <Progress
              percent={Math.round(job.progress * 100)}
              status="active"
              aria-label={t("courses:align.progress")}
            />
          </div>
        )}
        {job && !isActive(job) && !align.isPending && !proposeLines.isPending && (
          <AlignmentResult job={job} />
        )}
      </div>
    </Card>
  );
}
