import CheckCircleFilled from "@ant-design/icons-svg/es/asn/CheckCircleFilled";
import LockOutlined from "@ant-design/icons-svg/es/asn/LockOutlined";
import PlayCircleOutlined from "@ant-design/icons-svg/es/asn/PlayCircleOutlined";
import type { LessonItem } from "@parlons/contract";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PlainButtonLink } from "@/components/plain-button";
import { PlainIcon } from "@/components/plain-icon";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { lessonTitle } from "../api/course-queries";
import "./courses.css";
import { formatDate, formatDuration } from "@/lib/format";

/**
 * The lessons of a course as a learner sees them: open ones link to the player, locked ones show a
 * lock. Plain markup: the course page carries no antd.
 */
/** Why the course's pace keeps a lesson closed, in the reader's words (null when it does not). */
export function usePaceText(): (lesson: LessonItem, rank: number, dripDays: number) => string | null {
  const { t } = useTranslation();
  const lang = useLang();
  return (lesson, rank, dripDays) => {
    if (!lesson.drip) return null;
    if (lesson.drip.reason === "order") return t("courses:pace.order");
    if (lesson.drip.opens_at)
      return t("courses:pace.date", { date: formatDate(lesson.drip.opens_at, lang) ?? "" });
    return t("courses:pace.notStarted", { days: rank * dripDays });
  };
}

export function LessonList({
  courseId,
  lessons,
  currentId,
  dripDays = 7,
  query,
}: {
  courseId: string;
  lessons: LessonItem[];
  currentId?: string;
  /** Kept on the lessons' links (the staff's preview). */
  query?: Record<string, string>;
  /** The course's days between lessons, for "opens N days after you start". */
  dripDays?: number;
}) {
  const paceText = usePaceText();
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  if (lessons.length === 0)
    return <p className="lesson-list__empty text-secondary">{t("courses:lessons.empty")}</p>;
  return (
    <ul className="lesson-list">
      {lessons.map((lesson, index) => {
        const title = lessonTitle(lesson, lang);
        const done = lesson.progress?.done;
        const pace = paceText(lesson, index, dripDays);
        return (
          <li
            key={lesson.id}
            data-testid="lesson-row"
            data-locked={lesson.locked}
            className={lesson.id === currentId ? "lesson-row lesson-row--current" : "lesson-row"}
            aria-current={lesson.id === currentId ? "page" : undefined}
          >
            <span className="lesson-row__icon" aria-hidden="true">
              {lesson.locked ? (
                <PlainIcon icon={LockOutlined} />
              ) : done ? (
                <PlainIcon icon={CheckCircleFilled} className="is-done" />
              ) : (
                <PlainIcon icon={PlayCircleOutlined} />
              )}
            </span>
            <span className="lesson-row__title">
              <span className="lesson-row__number">{index + 1}.</span>{" "}
              {lesson.locked ? (
                <span>
                  {title} {/* a paced lesson says why beside it; the plan's lock is named here */}
                  {!lesson.drip && <span className="visually-hidden">{t("courses:lessons.locked")}</span>}
                </span>
              ) : (
                <Link to={to(pagePath("lesson", { id: courseId, lessonId: lesson.id }, query))}>{title}</Link>
              )}
            </span>
            <span className="lesson-row__meta">
              {pace && (
                <span className="text-secondary" data-testid="lesson-pace">
                  {pace}
                </span>
              )}
              {lesson.free && <span className="tag tag--green">{t("courses:lessons.free")}</span>}
              {done && <span className="tag tag--green">{t("courses:lessons.done")}</span>}
              {lesson.duration !== null && (
                <span className="text-secondary">{formatDuration(lesson.duration, lang)}</span>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** Free-plan call to action shown next to locked lessons. */
export function UpgradeCta({ locked }: { locked: number }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <div className="alert alert--info" role="alert" data-testid="upgrade-cta">
      <PlainIcon icon={LockOutlined} className="alert__icon" />
      <div className="alert__content">
        <div className="alert__title">{t("courses:upgrade.title", { count: locked })}</div>
        <div>{t("courses:upgrade.text")}</div>
      </div>
      <PlainButtonLink kind="primary" to={to(pagePath("pricing"))}>
        {t("courses:upgrade.button")}
      </PlainButtonLink>
    </div>
  );
}
