import { CheckCircleFilled, CloudDownloadOutlined, DeleteOutlined } from "@ant-design/icons";
import type { CourseItem, LessonItem } from "@parlons/contract";
import { App, Button, Progress, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes } from "@/lib/format";
import { useOnline } from "@/lib/online";
import { useSession } from "@/lib/session";
import { useLang } from "@/lib/use-locale";
import {
  type DownloadProgress,
  downloadable,
  downloadLessons,
  offlineSupported,
  removeDownloads,
  useDownloads,
} from "../api/offline/downloads";

/**
 * Download for offline use: one lesson (lesson page) or every open lesson of a course (course
 * page). Shows the lessons and bytes done while it runs, then what is kept and a Delete button.
 */
export function DownloadButton({
  course,
  lessons,
  scope,
}: {
  course: Pick<CourseItem, "id" | "title_fr" | "title_en">;
  lessons: LessonItem[];
  scope: "lesson" | "course";
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const { user } = useSession();
  const online = useOnline();
  const records = useDownloads();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const wanted = downloadable(lessons);
  if (!user || !offlineSupported() || wanted.length === 0 || records === null) return null;

  const kept = new Set(records.map((r) => r.lessonId));
  const keptHere = wanted.filter((l) => kept.has(l.id));
  const all = keptHere.length === wanted.length;
  const count = wanted.length;

  const start = async () => {
    setProgress({ done: 0, total: count, bytes: 0 });
    try {
      await downloadLessons({ userId: user.id, course, lessons: wanted }, setProgress);
      message.success(t("courses:offline.finished"));
    } catch {
      message.error(t("courses:offline.failed"));
    } finally {
      setProgress(null);
    }
  };
  const remove = async () => {
    await removeDownloads(keptHere.map((l) => l.id));
    message.success(t("courses:offline.removed"));
  };

  if (progress) {
    const percent = progress.total ? Math.round((progress.done / progress.total) * 100) : 0;
    const label = t("courses:offline.progress", {
      done: progress.done,
      total: progress.total,
      size: formatBytes(progress.bytes, lang),
    });
    return (
      <div className="download-button" data-testid="download-progress">
        <Progress percent={percent} size="small" aria-label={label} />
        <Typography.Text type="secondary" role="status">
          {label}
        </Typography.Text>
      </div>
    );
  }

  if (all) {
    return (
      <Space wrap className="download-button">
        <Typography.Text type="success" data-testid="download-done">
          <CheckCircleFilled aria-hidden="true" />{" "}
          {scope === "lesson" ? t("courses:offline.lessonKept") : t("courses:offline.courseKept", { count })}
        </Typography.Text>
        <Button
          size="small"
          icon={<DeleteOutlined />}
          onClick={() => void remove()}
          data-testid="download-remove"
        >
          {t("courses:offline.remove")}
        </Button>
      </Space>
    );
  }

  return (
    <Button
      className="download-button"
      icon={<CloudDownloadOutlined />}
      onClick={() => void start()}
      disabled={!online}
      data-testid={scope === "lesson" ? "download-lesson" : "download-course"}
    >
      {scope === "lesson"
        ? t("courses:offline.downloadLesson")
        : t("courses:offline.downloadCourse", { count })}
    </Button>
  );
}
