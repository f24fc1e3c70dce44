import {
  CheckCircleFilled,
  CheckOutlined,
  LeftOutlined,
  LinkOutlined,
  RightOutlined,
} from "@ant-design/icons";
import type { LessonItem, LessonListResponse } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Breadcrumb, Button, Card, Col, Empty, Row, Skeleton, Space, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { ButtonLink } from "../../../components/button-link";
import { LessonList, UpgradeCta } from "../../../components/courses/lesson-list";
import { NotFoundPage } from "../../../components/not-found";
import { ApiError, errorText } from "../../../lib/api";
import {
  courseKeys,
  courseQuery,
  courseTitle,
  lessonsQuery,
  lessonText,
  lessonTitle,
  type SavedProgress,
  saveLessonPositionOnUnload,
  saveLessonProgress,
} from "../../../lib/courses-api";
import { useLang, useLocalePath } from "../../../lib/use-locale";
import { usePageTitle } from "../../../lib/use-page-title";
import { AudioPlayer, type PositionReason } from "../../player/components/audio-player";
import { resumePoint } from "../../player/lib/time";
import "../lessons.css";

/** `/courses/{id}/lessons/{lessonId}`: the player, the lesson's text and transcript, links, navigation, done. */
export function LessonPage() {
  const { id = "", lessonId = "" } = useParams();
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const course = useQuery(courseQuery(id));
  const lessons = useQuery(lessonsQuery(course.data?.id));
  const list = lessons.data?.lessons ?? [];
  const index = list.findIndex((l) => l.id === lessonId);
  const lesson = index >= 0 ? list[index] : undefined;
  usePageTitle(lesson ? lessonTitle(lesson, lang) : t("common:pages.lesson"));

  if (course.error instanceof ApiError && course.error.status === 404) return <NotFoundPage />;
  if (!course.data || lessons.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!lesson) return <NotFoundPage />;

  const c = course.data;
  const cTitle = courseTitle(c, lang);
  const prev = list
    .slice(0, index)
    .reverse()
    .find((l) => !l.locked);
  const next = list.slice(index + 1).find((l) => !l.locked);
  const locked = list.filter((l) => l.locked).length;

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }} className="lesson-page">
      <Breadcrumb
        items={[
          { title: <Link to={to("/courses")}>{t("courses:catalog.title")}</Link> },
          { title: <Link to={to(`/courses/${c.id}`)}>{cTitle}</Link> },
          { title: lessonTitle(lesson, lang) },
        ]}
      />
      <div>
        <Typography.Text type="secondary">
          {t("courses:lesson.number", { n: index + 1, total: list.length })}
        </Typography.Text>
        <Typography.Title level={1} className="page-title">
          {lessonTitle(lesson, lang)}
        </Typography.Title>
      </div>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={16}>
          {lesson.locked ? (
            <Space orientation="vertical" style={{ width: "100%" }}>
              <UpgradeCta locked={locked} />
              <LessonBodyText lesson={lesson} lang={lang} />
            </Space>
          ) : (
            <OpenLesson
              key={lesson.id}
              courseId={c.id}
              courseTitle={cTitle}
              cover={c.cover_url}
              lesson={lesson}
              prevId={prev?.id}
              nextId={next?.id}
            />
          )}
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t("courses:lessons.title")} size="small">
            {lessons.data?.access === "free" && locked > 0 && !lesson.locked && (
              <ButtonLink type="link" to={to("/pricing")} className="lesson-page__unlock">
                {t("courses:upgrade.short")}
              </ButtonLink>
            )}
            <LessonList courseId={c.id} lessons={list} currentId={lesson.id} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}

function LessonBodyText({ lesson, lang }: { lesson: LessonItem; lang: "fr" | "en" }) {
  const text = lessonText(lesson, lang);
  if (!text) return null;
  return <Typography.Paragraph className="lesson-page__text">{text}</Typography.Paragraph>;
}

function OpenLesson({
  courseId,
  courseTitle: cTitle,
  cover,
  lesson,
  prevId,
  nextId,
}: {
  courseId: string;
  courseTitle: string;
  cover: string | null;
  lesson: LessonItem;
  prevId?: string;
  nextId?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [done, setDone] = useState(lesson.progress?.done ?? false);
  const [saving, setSaving] = useState(false);
  // The signed URL is kept for the whole visit (a list refresh must not restart the audio);
  // it is replaced only when the browser reports that it failed (expired).
  const [src, setSrc] = useState(lesson.audio?.url ?? null);
  const [startAt] = useState(() => resumePoint(lesson.progress?.last_position, lesson.duration));

  const listKey = courseKeys.lessons(courseId);
  const applyProgress = useCallback(
    (progress: SavedProgress) => {
      queryClient.setQueryData<LessonListResponse["data"]>(listKey, (old) =>
        old
          ? {
              ...old,
              lessons: old.lessons.map((l) => (l.id === progress.lesson_id ? { ...l, progress } : l)),
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: courseKeys.progress });
      void queryClient.invalidateQueries({ queryKey: courseKeys.overview(courseId) });
    },
    [queryClient, listKey, courseId],
  );

  const setDoneState = useCallback(
    async (value: boolean, { auto = false } = {}) => {
      setSaving(true);
      try {
        const progress = await saveLessonProgress(courseId, { lesson_id: lesson.id, done: value });
        setDone(progress.done);
        applyProgress(progress);
        if (auto) {
          const key = `done-${lesson.id}`;
          message.open({
            key,
            type: "success",
            duration: 8,
            content: (
              <span data-testid="auto-done-toast">
                {t("courses:lesson.autoDone")}{" "}
                <Button
                  size="small"
                  type="link"
                  onClick={() => {
                    message.destroy(key);
                    void setDoneState(false);
                  }}
                >
                  {t("courses:lesson.undo")}
                </Button>
              </span>
            ),
          });
        } else {
          message.success(value ? t("courses:lesson.markedDone") : t("courses:lesson.markedNotDone"));
        }
      } catch (error) {
        message.error(errorText(error));
      } finally {
        setSaving(false);
      }
    },
    [courseId, lesson.id, applyProgress, message, t],
  );

  const onPosition = useCallback(
    (seconds: number, reason: PositionReason) => {
      const position = Math.round(seconds * 10) / 10;
      if (reason === "unload") {
        saveLessonPositionOnUnload(courseId, lesson.id, position);
        return;
      }
      saveLessonProgress(courseId, { lesson_id: lesson.id, last_position: position }, { silent: true })
        .then(applyProgress)
        .catch(() => undefined);
    },
    [courseId, lesson.id, applyProgress],
  );

  const doneRef = useDoneRef(done);
  const onNearEnd = useCallback(() => {
    if (!doneRef.current) void setDoneState(true, { auto: true });
  }, [doneRef, setDoneState]);

  const onSourceError = useCallback(() => {
    void queryClient.fetchQuery({ ...lessonsQuery(courseId), staleTime: 0 }).then((data) => {
      const fresh = data.lessons.find((l) => l.id === lesson.id)?.audio?.url;
      if (fresh && fresh !== src) setSrc(fresh);
    });
  }, [queryClient, courseId, lesson.id, src]);

  const goPrev = useCallback(
    () => prevId && navigate(to(`/courses/${courseId}/lessons/${prevId}`)),
    [prevId, navigate, to, courseId],
  );
  const goNext = useCallback(
    () => nextId && navigate(to(`/courses/${courseId}/lessons/${nextId}`)),
    [nextId, navigate, to, courseId],
  );

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      {src ? (
        <Card className="player-card">
          <AudioPlayer
            src={src}
            title={lessonTitle(lesson, lang)}
            subtitle={cTitle}
            artwork={cover}
            cues={lesson.cues}
            transcript={lesson.transcript}
            knownDuration={lesson.duration}
            startAt={startAt}
            onPosition={onPosition}
            onFirstPlay={() => {
              saveLessonProgress(courseId, { lesson_id: lesson.id, played: true }, { silent: true })
                .then(applyProgress)
                .catch(() => undefined);
            }}
            onNearEnd={onNearEnd}
            onPrevious={prevId ? goPrev : undefined}
            onNext={nextId ? goNext : undefined}
            onSourceError={onSourceError}
          />
        </Card>
      ) : (
        <Empty description={t("courses:lesson.noAudio")} />
      )}

      <div className="lesson-page__actions">
        <Button
          type={done ? "default" : "primary"}
          icon={done ? <CheckCircleFilled /> : <CheckOutlined />}
          onClick={() => void setDoneState(!done)}
          loading={saving}
          aria-pressed={done}
          data-testid="mark-done"
          data-done={done}
        >
          {done ? t("courses:lesson.done") : t("courses:lesson.markDone")}
        </Button>
        <Space>
          <ButtonLink
            icon={<LeftOutlined />}
            to={prevId ? to(`/courses/${courseId}/lessons/${prevId}`) : to(`/courses/${courseId}`)}
            disabled={!prevId}
            data-testid="lesson-prev"
          >
            {t("courses:lesson.previous")}
          </ButtonLink>
          <ButtonLink
            to={nextId ? to(`/courses/${courseId}/lessons/${nextId}`) : to(`/courses/${courseId}`)}
            disabled={!nextId}
            data-testid="lesson-next"
          >
            {t("courses:lesson.next")} <RightOutlined />
          </ButtonLink>
        </Space>
      </div>

      {lessonText(lesson, lang) && (
        <Card title={t("courses:lesson.text")} size="small">
          <LessonBodyText lesson={lesson} lang={lang} />
        </Card>
      )}

      {lesson.links.length > 0 && (
        <Card title={t("courses:links.title")} size="small">
          <ul className="lesson-links">
            {lesson.links.map((link) => (
              <li key={`${link.label}-${link.url}`}>
                <LinkOutlined aria-hidden="true" />{" "}
                <a
                  href={/^https?:\/\//i.test(link.url) ? link.url : `https://${link.url}`}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {link.label}
                  <span className="visually-hidden"> {t("courses:links.newTab")}</span>
                </a>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </Space>
  );
}

function useDoneRef(done: boolean) {
  const [ref] = useState(() => ({ current: done }));
  useEffect(() => {
    ref.current = done;
  }, [ref, done]);
  return ref;
}
