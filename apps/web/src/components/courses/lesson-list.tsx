import { CheckCircleFilled, LockOutlined, PlayCircleOutlined } from "@ant-design/icons";
import type { LessonItem } from "@parlons/contract";
import { Alert, List, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { lessonTitle } from "../../lib/courses-api";
import { useLang, useLocalePath } from "../../lib/use-locale";
import { ButtonLink } from "../button-link";
import "./courses.css";
import { formatDuration } from "../../lib/format";

/** The lessons of a course as a learner sees them: open ones link to the player, locked ones show a lock. */
export function LessonList({
  courseId,
  lessons,
  currentId,
}: {
  courseId: string;
  lessons: LessonItem[];
  currentId?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  return (
    <List
      className="lesson-list"
      dataSource={lessons}
      locale={{ emptyText: t("courses:lessons.empty") }}
      renderItem={(lesson, index) => {
        const title = lessonTitle(lesson, lang);
        const done = lesson.progress?.done;
        return (
          <List.Item
            key={lesson.id}
            data-testid="lesson-row"
            data-locked={lesson.locked}
            className={lesson.id === currentId ? "lesson-row lesson-row--current" : "lesson-row"}
            aria-current={lesson.id === currentId ? "page" : undefined}
          >
            <span className="lesson-row__icon" aria-hidden="true">
              {lesson.locked ? (
                <LockOutlined />
              ) : done ? (
                <CheckCircleFilled className="is-done" />
              ) : (
                <PlayCircleOutlined />
              )}
            </span>
            <span className="lesson-row__title">
              <span className="lesson-row__number">{index + 1}.</span>{" "}
              {lesson.locked ? (
                <span>
                  {title} <span className="visually-hidden">{t("courses:lessons.locked")}</span>
                </span>
              ) : (
                <Link to={to(`/courses/${courseId}/lessons/${lesson.id}`)}>{title}</Link>
              )}
            </span>
            <span className="lesson-row__meta">
              {lesson.free && <Tag color="green">{t("courses:lessons.free")}</Tag>}
              {done && <Tag color="success">{t("courses:lessons.done")}</Tag>}
              {lesson.duration !== null && (
                <Typography.Text type="secondary">{formatDuration(lesson.duration, lang)}</Typography.Text>
              )}
            </span>
          </List.Item>
        );
      }}
    />
  );
}

/** Free-plan call to action shown next to locked lessons. */
export function UpgradeCta({ locked }: { locked: number }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Alert
      type="info"
      showIcon
      icon={<LockOutlined />}
      data-testid="upgrade-cta"
      title={t("courses:upgrade.title", { count: locked })}
      description={t("courses:upgrade.text")}
      action={
        <ButtonLink type="primary" to={to("/pricing")}>
          {t("courses:upgrade.button")}
        </ButtonLink>
      }
    />
  );
}
