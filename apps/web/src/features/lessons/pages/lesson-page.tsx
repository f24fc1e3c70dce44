import {
  CheckCircleFilled,
  CheckOutlined,
  LeftOutlined,
  LinkOutlined,
  RightOutlined,
} from "@ant-design/icons";
import type { Lang, LessonItem, LessonListResponse } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Breadcrumb, Button, Card, Col, Empty, Row, Skeleton, Space, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { NotFoundPage } from "@/components/not-found";
import { PlainButtonLink } from "@/components/plain-button";
import { myCertificatesQuery } from "@/features/certificates/api/certificate-queries";
import {
  courseKeys,
  courseQuery,
  courseTitle,
  lessonsQuery,
  lessonTitle,
} from "@/features/courses/api/course-queries";
import { LessonList, UpgradeCta, usePaceText } from "@/features/courses/components/lesson-list";
import { DownloadButton } from "@/features/downloads/components/download-button";
import { AudioPlayer, type PositionReason } from "@/features/player/components/audio-player";
import type { Handoff } from "@/features/player/lib/now-playing";
import { resumePoint } from "@/features/player/lib/time";
import { AddLineButton } from "@/features/review/components/add-line-button";
import { ApiError, errorText } from "@/lib/api-error";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import {
  lessonText,
  type SavedProgress,
  saveLessonPositionOnUnload,
  saveLessonProgress,
} from "../api/lessons-api";
import { SpeakButton } from "../components/speak/speak-button";
import "../lessons.css";

/** `/courses/{id}/lessons/{lessonId}`: the player, the lesson's text and transcript, links, navigation, done. */
export function LessonPage() {
  const { id = "", lessonId = "" } = useParams();
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const paceText = usePaceText();
  const course = useQuery(courseQuery(id));
  const lessons = useQuery(lessonsQuery(course.data?.id));
  const list = lessons.data?.lessons ?? [];
  const index = list.findIndex((l) => l.id === lessonId);
  const lesson = index >= 0 ? list[index] : undefined;
  usePageTitle(lesson ? lessonTitle(lesson, lang) : t("common:pages.lesson"));

  if (course.error instanceof ApiError && course.error.status === 404) return <NotFoundPage />;
  const failed = course.isError ? course : lessons.isError ? lessons : null;
  if (failed) {
    return <LoadError query={failed} />;
  }
  if (!course.data || lessons.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!lesson) return <NotFoundPage />;

  const c = course.data;
  const cTitle = courseTitle(c, lang);
  const prev = list
    .slice(0, index)
    .reverse()
    .find((l) => !l.locked);
  const next = list.slice(index + 1).find((l) => !l.locked);
  // lessons the plan closes (the pace's own locks are not an upgrade's to open)
  const locked = list.filter((l) => l.locked && !l.drip).length;
  const pace = paceText(lesson, index, c.drip_days);

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
        {!lesson.locked && <DownloadButton course={c} lessons={[lesson]} scope="lesson" />}
      </div>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={16}>
          {lesson.locked ? (
            <Space orientation="vertical" style={{ width: "100%" }}>
              {pace ? (
                <div className="alert" role="status" data-testid="lesson-pace-notice">
                  {pace}
                </div>
              ) : (
                <UpgradeCta locked={locked} />
              )}
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
            <LessonList courseId={c.id} lessons={list} currentId={lesson.id} dripDays={c.drip_days} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}

function LessonBodyText({ lesson, lang }: { lesson: LessonItem; lang: Lang }) {
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

  // the progress as last known, for what the page shows of a call queued offline; a ref, so that
  // the player's callbacks keep their identity when a save refreshes the lesson
  const progressRef = useDoneRef(lesson.progress);
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
        const progress = await saveLessonProgress(
          courseId,
          { lesson_id: lesson.id, done: value },
          { previous: progressRef.current },
        );
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
    [courseId, lesson.id, progressRef, applyProgress, message, t],
  );

  const onPosition = useCallback(
    (seconds: number, reason: PositionReason) => {
      const position = Math.round(seconds * 10) / 10;
      if (reason === "unload") {
        saveLessonPositionOnUnload(courseId, lesson.id, position);
        return;
      }
      saveLessonProgress(
        courseId,
        { lesson_id: lesson.id, last_position: position },
        { silent: true, previous: progressRef.current },
      )
        .then(applyProgress)
        .catch(() => undefined);
    },
    [courseId, lesson.id, progressRef, applyProgress],
  );

  const doneRef = useDoneRef(done);
  // the lesson that finishes a course issues its certificate (the progress save refreshes the list)
  const certificates = useQuery({ ...myCertificatesQuery, enabled: done });
  const certificate = done
    ? certificates.data?.find((x) => x.course_id === courseId && x.status === "valid")
    : undefined;
  const onNearEnd = useCallback(() => {
    if (!doneRef.current) void setDoneState(true, { auto: true });
  }, [doneRef, setDoneState]);

  const onSourceError = useCallback(() => {
    void queryClient.fetchQuery({ ...lessonsQuery(courseId), staleTime: 0 }).then((data) => {
      const fresh = data.lessons.find((l) => l.id === lesson.id)?.audio?.url;
      if (fresh && fresh !== src) setSrc(fresh);
    });
  }, [queryClient, courseId, lesson.id, src]);

  const handoff = useCallback(
    (): Handoff => ({
      lessonId: lesson.id,
      title: lessonTitle(lesson, lang),
      subtitle: cTitle,
      artwork: cover,
      path: to(`/courses/${courseId}/lessons/${lesson.id}`),
      save: onPosition,
      finish: () => {
        if (doneRef.current) return;
        saveLessonProgress(
          courseId,
          { lesson_id: lesson.id, done: true },
          { silent: true, previous: progressRef.current },
        )
          .then(applyProgress)
          .catch(() => undefined);
      },
      refresh: () =>
        queryClient
          .fetchQuery({ ...lessonsQuery(courseId), staleTime: 0 })
          .then((data) => data.lessons.find((l) => l.id === lesson.id)?.audio?.url),
    }),
    [lesson, lang, cTitle, cover, to, courseId, onPosition, doneRef, progressRef, applyProgress, queryClient],
  );

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
            lessonId={lesson.id}
            handoff={handoff}
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
              saveLessonProgress(
                courseId,
                { lesson_id: lesson.id, played: true },
                { silent: true, previous: progressRef.current },
              )
                .then(applyProgress)
                .catch(() => undefined);
            }}
            onNearEnd={onNearEnd}
            onPrevious={prevId ? goPrev : undefined}
            onNext={nextId ? goNext : undefined}
            onSourceError={onSourceError}
            lineAction={(cue) => {
              if (!cue.id) return null;
              const end = cue.end ?? cue.start + 5;
              const line = { cueId: cue.id, lessonId: lesson.id, text: cue.text, start: cue.start, end, src };
              return (
                <span className="transcript__actions">
                  <SpeakButton line={line} />
                  <AddLineButton cueId={cue.id} />
                </span>
              );
            }}
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
        {/* wraps on a narrow phone: "Lección anterior / siguiente" are wider than 360 px side by side */}
        <Space wrap>
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

      {certificate && (
        <Alert
          type="success"
          showIcon
          role="status"
          data-testid="lesson-certificate"
          title={t("courses:lesson.certificateEarned")}
          action={
            <PlainButtonLink to={to(`/certificates/${certificate.id}`)} kind="primary">
              {t("courses:certificate")}
            </PlainButtonLink>
          }
        />
      )}

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

function useDoneRef<T>(value: T) {
  const [ref] = useState(() => ({ current: value }));
  useEffect(() => {
    ref.current = value;
  }, [ref, value]);
  return ref;
}
