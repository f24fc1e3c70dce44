import CheckCircleFilled from "@ant-design/icons-svg/es/asn/CheckCircleFilled";
import CloudDownloadOutlined from "@ant-design/icons-svg/es/asn/CloudDownloadOutlined";
import DeleteOutlined from "@ant-design/icons-svg/es/asn/DeleteOutlined";
import type { CourseItem, LessonItem } from "@parlons/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PlainButton } from "@/components/plain-button";
import { PlainIcon } from "@/components/plain-icon";
import { formatBytes } from "@/lib/format";
import { useOnline } from "@/lib/online";
import { useSession } from "@/lib/session";
import { toast } from "@/lib/toast";
import { useLang } from "@/lib/use-locale";
import {
  type DownloadProgress,
  downloadable,
  downloadLessons,
  offlineSupported,
  removeDownloads,
  useDownloads,
} from "../api/offline/downloads";
import "./download-button.css";

/**
 * Download for offline use: one lesson (lesson page) or every open lesson of a course (course
 * page). Shows the lessons and bytes done while it runs, then what is kept and a Delete button.
 * Plain markup (no antd): the course page, drawn without antd, shows it to signed-in learners.
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
      toast("success", t("courses:offline.finished"));
    } catch {
      toast("error", t("courses:offline.failed"));
    } finally {
      setProgress(null);
    }
  };
  const remove = async () => {
    await removeDownloads(keptHere.map((l) => l.id));
    toast("success", t("courses:offline.removed"));
  };

  if (progress) {
    const percent = progress.total ? Math.round((progress.done / progress.total) * 100) : 0;
    const label = t("courses:offline.progress", {
      done: progress.done,
      total: progress.total,
      size: formatBytes(progress.bytes, lang),
    });
    return (
      <div className="download-button download-button--progress" data-testid="download-progress">
        <progress className="download-button__bar" max={100} value={percent} aria-label={label} />
        <span className="download-button__note" role="status">
          {label}
        </span>
      </div>
    );
  }

  if (all) {
    return (
      <div className="download-button download-button--kept">
        <span className="download-button__kept" data-testid="download-done">
          <PlainIcon icon={CheckCircleFilled} />{" "}
          {scope === "lesson" ? t("courses:offline.lessonKept") : t("courses:offline.courseKept", { count })}
        </span>
        <PlainButton
          className="btn--small"
          icon={<PlainIcon icon={DeleteOutlined} />}
          onClick={() => void remove()}
          data-testid="download-remove"
        >
          {t("courses:offline.remove")}
        </PlainButton>
      </div>
    );
  }

  return (
    <PlainButton
      className="download-button"
      icon={<PlainIcon icon={CloudDownloadOutlined} />}
      onClick={() => void start()}
      disabled={!online}
      data-testid={scope === "lesson" ? "download-lesson" : "download-course"}
    >
      {scope === "lesson"
        ? t("courses:offline.downloadLesson")
        : t("courses:offline.downloadCourse", { count })}
    </PlainButton>
  );
}
