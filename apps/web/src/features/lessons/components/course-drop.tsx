import { InboxOutlined } from "@ant-design/icons";
import type { CourseImportItem } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, List, Progress, Tag, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { courseKeys } from "@/features/courses/api/course-queries";
import { errorText } from "@/lib/api-error";
import { latestAlignmentQuery } from "../api/alignment-api";
import { importCourseFiles } from "../api/translations-api";

/** One lesson of the drop: created, aligning (with the job's progress) or failed (the file and why). */
function DropItem({ courseId, item }: { courseId: string; item: CourseImportItem }) {
  const { t } = useTranslation();
  const aligning = item.status === "aligning" && item.lesson_id !== null;
  const job = useQuery({ ...latestAlignmentQuery(courseId, item.lesson_id ?? ""), enabled: aligning });
  const status = aligning ? (job.data?.status ?? "queued") : item.status;
  const queryClient = useQueryClient();
  // the lines an alignment wrote: the lessons are read again, so the editor opens with them
  useEffect(() => {
    if (aligning && status === "done")
      void queryClient.invalidateQueries({ queryKey: courseKeys.lessons(courseId) });
  }, [aligning, status, queryClient, courseId]);
  return (
    <List.Item data-testid="drop-item" data-status={status}>
      <span>{item.name}</span>{" "}
      {item.error ? (
        <Tag color="red">{t(`errors:${item.error.code}`, { defaultValue: "" }) || item.error.message}</Tag>
      ) : (
        <Tag color={status === "failed" ? "red" : "green"}>{t(`courses:drop.status.${status}`)}</Tag>
      )}
      {item.error && <div className="drop-item__why">{item.error.message}</div>}
      {aligning && job.data && status !== "done" && (
        <Progress percent={Math.round(job.data.progress * 100)} size="small" aria-label={item.name} />
      )}
    </List.Item>
  );
}

/** Staff: a whole course in one drop (audio files and scripts paired by name, or zips of them). */
export function CourseDrop({ courseId }: { courseId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [items, setItems] = useState<CourseImportItem[]>([]);
  const [busy, setBusy] = useState(false);

  async function send() {
    setBusy(true);
    try {
      const result = await importCourseFiles(courseId, files);
      setItems(result.items);
      // the failed files stay picked, to be fixed and sent again
      const failedNames = new Set(result.items.flatMap((i) => (i.error ? [i.audio, i.script, i.name] : [])));
      setFiles((picked) => picked.filter((f) => failedNames.has(f.name)));
      message.success(t("courses:drop.done", { created: result.created, failed: result.failed }));
      void queryClient.invalidateQueries({ queryKey: courseKeys.lessons(courseId) });
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="course-drop" data-testid="course-drop">
      <Upload.Dragger
        multiple
        accept=".mp3,.txt,.vtt,.srt,.zip,.json,.csv"
        fileList={files.map((f) => ({ uid: `${f.name}-${f.size}`, name: f.name }))}
        beforeUpload={(file) => {
          setFiles((picked) => [...picked.filter((f) => f.name !== file.name), file]);
          return false;
        }}
        onRemove={(removed) => setFiles((picked) => picked.filter((f) => f.name !== removed.name))}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{t("courses:drop.hint")}</p>
      </Upload.Dragger>
      <Button type="primary" disabled={files.length === 0} loading={busy} onClick={() => void send()}>
        {t("courses:drop.send", { count: files.length })}
      </Button>
      {items.length > 0 && (
        <List
          size="small"
          dataSource={items}
          renderItem={(item) => <DropItem courseId={courseId} item={item} />}
        />
      )}
    </div>
  );
}
