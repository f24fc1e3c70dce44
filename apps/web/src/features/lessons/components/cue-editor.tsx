import {
  AimOutlined,
  DeleteOutlined,
  DownloadOutlined,
  MergeCellsOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  ScissorOutlined,
} from "@ant-design/icons";
import type { LessonItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Empty, Input, InputNumber, Space, Tag, Tooltip, Typography } from "antd";
import { lazy, type ReactNode, Suspense, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FilePickButton } from "@/components/file-pick-button";
import { formatClock } from "@/features/player/lib/time";
import { errorText } from "@/lib/api-error";
import { saveFile } from "@/lib/download";
import { latestAlignmentQuery } from "../api/alignment-api";
import { useSaveCues } from "../api/lessons-api";
import {
  addCueAt,
  type EditedCue,
  fillTexts,
  isMultiLine,
  mergeAtPlayhead,
  mergeWithNext,
  setStart,
  splitAtPlayhead,
  splitCue,
  withKeys,
} from "../lib/cue-edit";
import { CueFormatError, cuesToTimestamps, cuesToVtt, importCues } from "../lib/cue-formats";
import { pastAudioEnd } from "../lib/line-bounds";

// wavesurfer.js and its regions, in the editor's own chunk
const WaveformEditor = lazy(() => import("./waveform-editor"));

/** One of a line's tool buttons: an icon with its tooltip and a label naming the line. */
function RowAction(props: {
  title: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <Tooltip title={props.title}>
      <Button
        icon={props.icon}
        aria-label={props.label}
        onClick={props.onClick}
        disabled={props.disabled}
        data-testid={props.testId}
      />
    </Tooltip>
  );
}

function download(name: string, type: string, content: string) {
  saveFile(name, new Blob([content], { type }));
}

/**
 * Staff editor of a lesson's lines: times, text and translations; add, remove, split, merge;
 * "set start to the current time" while the lesson plays above; import and export WebVTT and
 * the `[mm:ss] sentence` format. Saved as one list (`PUT …/cues`): lines keep their ids.
 */
export function CueEditor({ courseId, lesson }: { courseId: string; lesson: LessonItem }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const audio = useRef<HTMLAudioElement>(null);
  const [rows, setRows] = useState<EditedCue[]>(() => withKeys(lesson.cues));
  const [dirty, setDirty] = useState(false);
  const change = (next: EditedCue[]) => {
    setRows(next);
    setDirty(true);
  };
  const now = () => audio.current?.currentTime ?? 0;
  const update = (index: number, patch: Partial<EditedCue>) =>
    change(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const [selected, setSelected] = useState(0);
  // the lines the latest alignment placed with little confidence, flagged until edited
  const alignment = useQuery(latestAlignmentQuery(courseId, lesson.id)).data;
  const doubtful = useMemo(
    () =>
      new Set(alignment?.status === "done" ? alignment.lines.filter((l) => l.doubtful).map((l) => l.id) : []),
    [alignment],
  );
  // lines ending past the audio's end, said on the line (the save would be refused)
  const past = useMemo(() => pastAudioEnd(rows, lesson.duration), [rows, lesson.duration]);
  const waveLines = useMemo(
    () => rows.map((r) => ({ key: r.key, start: r.start, end: r.end, doubtful: doubtful.has(r.key) })),
    [rows, doubtful],
  );

  const saveCues = useSaveCues(courseId, lesson.id, {
    onSuccess: (cues) => {
      setRows(withKeys(cues));
      setDirty(false);
      message.success(t("courses:cues.saved"));
    },
    onError: (error) => message.error(errorText(error)),
  });

  const onFile = async (file: File) => {
    try {
      const imported = withKeys(importCues(await file.text(), lesson.duration));
      const apply = () => {
        change(imported);
        message.success(t("courses:cues.imported", { count: imported.length }));
      };
      if (rows.length === 0) apply();
      else
        modal.confirm({
          title: t("courses:cues.replaceTitle"),
          content: t("courses:cues.replaceText", { count: imported.length }),
          onOk: apply,
        });
    } catch (error) {
      message.error(
        error instanceof CueFormatError ? t(`courses:cues.errors.${error.reason}`) : errorText(error),
      );
    }
  };

  // a split or merge at the waveform's playhead; the line it made is selected
  const applyAt = (done: { cues: EditedCue[]; index: number } | null, offset: number) => {
    if (!done) return false;
    change(done.cues);
    setSelected(done.index + offset);
    return true;
  };

  // a text of several lines pasted into a line fills it and the following ones, in order
  const pasteLines = (index: number, pasted: string) => {
    const { cues, filled, leftover } = fillTexts(rows, index, pasted);
    change(cues);
    if (leftover > 0) message.warning(t("courses:cues.pasteLeftover", { count: leftover, filled }));
    else message.success(t("courses:cues.pasted", { count: filled }));
  };

  const playLine = (cue: EditedCue) => {
    const el = audio.current;
    if (!el) return;
    el.currentTime = cue.start;
    void el.play().catch(() => undefined);
  };

  return (
    <Card size="small" title={t("courses:cues.title")} data-testid="cue-editor" className="cue-editor">
      <Typography.Paragraph type="secondary">{t("courses:cues.hint")}</Typography.Paragraph>
      {lesson.audio && (
        // biome-ignore lint/a11y/useMediaCaption: the captions are what this editor makes
        <audio ref={audio} src={lesson.audio.url} controls preload="metadata" className="cue-editor__audio" />
      )}
      {lesson.audio && rows.length > 0 && (
        <Suspense
          fallback={<Typography.Text type="secondary">{t("courses:waveform.loading")}</Typography.Text>}
        >
          <WaveformEditor
            url={lesson.audio.url}
            duration={lesson.duration}
            lines={waveLines}
            selected={Math.min(selected, rows.length - 1)}
            onSelect={setSelected}
            onPlace={(i, span) => update(i, span)}
            onSplit={(at) => applyAt(splitAtPlayhead(rows, at), 1)}
            onMerge={(at) => applyAt(mergeAtPlayhead(rows, at, selected), 0)}
          />
        </Suspense>
      )}
      <Space wrap className="cue-editor__tools">
        <Button
          icon={<PlusOutlined />}
          onClick={() => change(addCueAt(rows, now(), lesson.duration))}
          data-testid="cue-add"
        >
          {t("courses:cues.add")}
        </Button>
        <FilePickButton
          label={t("courses:cues.import")}
          accept=".vtt,.txt,text/vtt,text/plain"
          onPick={(file) => void onFile(file)}
          inputTestId="cue-import"
        />
        <Button
          icon={<DownloadOutlined />}
          disabled={rows.length === 0}
          onClick={() => download(`lesson-${lesson.position + 1}.vtt`, "text/vtt", cuesToVtt(rows))}
        >
          {t("courses:cues.exportVtt")}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          disabled={rows.length === 0}
          onClick={() => download(`lesson-${lesson.position + 1}.txt`, "text/plain", cuesToTimestamps(rows))}
        >
          {t("courses:cues.exportText")}
        </Button>
      </Space>
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("courses:cues.empty")} />
      ) : (
        <ol className="cue-editor__list">
          {rows.map((row, i) => (
            <li
              key={row.key}
              className={`cue-editor__row${i === selected ? " cue-editor__row--selected" : ""}`}
              data-testid="cue-row"
              onFocus={() => setSelected(i)}
            >
              <Space wrap align="start">
                {doubtful.has(row.key) && (
                  <Tag color="warning" data-testid="cue-doubtful">
                    {t("courses:align.check")}
                  </Tag>
                )}
                <InputNumber
                  aria-label={t("courses:cues.start", { n: i + 1 })}
                  min={0}
                  step={0.05}
                  precision={2}
                  value={row.start}
                  onChange={(v) => update(i, { start: v ?? 0 })}
                  style={{ width: 96 }}
                />
                <InputNumber
                  aria-label={t("courses:cues.end", { n: i + 1 })}
                  min={0}
                  step={0.05}
                  precision={2}
                  value={row.end}
                  onChange={(v) => update(i, { end: v ?? 0 })}
                  status={past.has(i) ? "error" : undefined}
                  style={{ width: 96 }}
                />
                <Typography.Text type="secondary" className="cue-editor__clock">
                  {formatClock(row.start)}
                </Typography.Text>
                <RowAction
                  title={t("courses:cues.setStart")}
                  label={t("courses:cues.setStartN", { n: i + 1 })}
                  icon={<AimOutlined />}
                  onClick={() => change(setStart(rows, i, now()))}
                  testId="cue-set-start"
                />
                <RowAction
                  title={t("courses:cues.play")}
                  label={t("courses:cues.playN", { n: i + 1 })}
                  icon={<PlayCircleOutlined />}
                  onClick={() => playLine(row)}
                  testId="cue-play"
                />
                <RowAction
                  title={t("courses:cues.split")}
                  label={t("courses:cues.splitN", { n: i + 1 })}
                  icon={<ScissorOutlined />}
                  onClick={() => change(splitCue(rows, i, now()))}
                  testId="cue-split"
                />
                <RowAction
                  title={t("courses:cues.merge")}
                  label={t("courses:cues.mergeN", { n: i + 1 })}
                  icon={<MergeCellsOutlined />}
                  disabled={i === rows.length - 1}
                  onClick={() => change(mergeWithNext(rows, i))}
                  testId="cue-merge"
                />
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t("courses:cues.removeN", { n: i + 1 })}
                  onClick={() => change(rows.filter((_, j) => j !== i))}
                  data-testid="cue-remove"
                />
              </Space>
              {past.has(i) && (
                <Typography.Text type="danger" data-testid="cue-past-end" role="alert">
                  {t("courses:cues.pastEnd", { n: i + 1, end: row.end, duration: lesson.duration })}
                </Typography.Text>
              )}
              <Input
                aria-label={t("courses:cues.text", { n: i + 1 })}
                placeholder={t(row.text ? "courses:cues.textPlaceholder" : "courses:cues.textToType")}
                value={row.text}
                onChange={(e) => update(i, { text: e.target.value })}
                onPaste={(e) => {
                  const pasted = e.clipboardData.getData("text");
                  if (isMultiLine(pasted)) {
                    e.preventDefault();
                    pasteLines(i, pasted);
                  }
                }}
                maxLength={2000}
                data-testid="cue-text"
              />
              <Space.Compact block>
                <Input
                  aria-label={t("courses:cues.translationFr", { n: i + 1 })}
                  placeholder={t("courses:cues.translationFrPlaceholder")}
                  lang="fr"
                  value={row.translation_fr}
                  onChange={(e) => update(i, { translation_fr: e.target.value })}
                  maxLength={2000}
                  data-testid="cue-fr"
                />
                <Input
                  aria-label={t("courses:cues.translationEn", { n: i + 1 })}
                  placeholder={t("courses:cues.translationEnPlaceholder")}
                  lang="en"
                  value={row.translation_en}
                  onChange={(e) => update(i, { translation_en: e.target.value })}
                  maxLength={2000}
                  data-testid="cue-en"
                />
                <Input
                  aria-label={t("courses:cues.translationEs", { n: i + 1 })}
                  placeholder={t("courses:cues.translationEsPlaceholder")}
                  lang="es"
                  value={row.translation_es ?? ""}
                  onChange={(e) => update(i, { translation_es: e.target.value })}
                  maxLength={2000}
                  data-testid="cue-es"
                />
              </Space.Compact>
            </li>
          ))}
        </ol>
      )}
      <Button
        type="primary"
        onClick={() =>
          saveCues.mutate([...rows].sort((a, b) => a.start - b.start).map(({ key: _key, ...cue }) => cue))
        }
        loading={saveCues.isPending}
        disabled={!dirty || past.size > 0}
        data-testid="cue-save"
        style={{ marginTop: 12 }}
      >
        {t("courses:cues.save", { count: rows.length })}
      </Button>
    </Card>
  );
}
