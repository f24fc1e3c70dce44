import {
  CheckCircleFilled,
  CheckOutlined,
  LeftOutlined,
  LinkOutlined,
  RightOutlined,
} from "@ant-design/icons";
import type { LessonItem } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Empty, Space } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { PlainButtonLink } from "@/components/plain-button";
import { myCertificatesQuery } from "@/features/certificates/api/certificate-queries";
import { lessonsQuery, lessonTitle } from "@/features/courses/api/course-queries";
import { AudioPlayer, type PositionReason } from "@/features/player/components/audio-player";
import type { Handoff } from "@/features/player/lib/now-playing";
import { resumePoint } from "@/features/player/lib/time";
import { AddLineButton } from "@/features/review/components/add-line-button";
import { useTranscriptWords } from "@/features/words/components/use-transcript-words";
import { errorText } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useLatest } from "@/lib/use-latest";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { lessonText, saveLessonPositionOnUnload } from "../api/lessons-api";
import { useLessonProgress } from "../api/use-lesson-progress";
import { LessonBodyText } from "./lesson-body-text";
import { SpeakButton } from "./speak/speak-button";

/** An open lesson: the player, done / undo, previous and next, the certificate it earned, text and links. */
export function OpenLesson({
  courseId,
  courseTitle: cTitle,
  cover,
  language,
  lesson,
  prevId,
  nextId,
}: {
  courseId: string;
  courseTitle: string;
  cover: string | null;
  /** The language the course teaches: its words are looked up and counted in it. */
  language: string;
  lesson: LessonItem;
  prevId?: string;
  nextId?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  // the lesson before or after this one; at either end of the course, the course page
  const neighbour = (lessonId?: string) =>
    to(lessonId ? pagePath("lesson", { id: courseId, lessonId }) : pagePath("course", { id: courseId }));
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [done, setDone] = useState(lesson.progress?.done ?? false);
  const [saving, setSaving] = useState(false);
  // The signed URL is kept for the whole visit (a list refresh must not restart the audio);
  // it is replaced only when the browser reports that it failed (expired).
  const [src, setSrc] = useState(lesson.audio?.url ?? null);
  const [startAt] = useState(() => resumePoint(lesson.progress?.last_position, lesson.duration));

  const { save, saveQuietly } = useLessonProgress(courseId, lesson.id, lesson.progress);
  const { words, sheet } = useTranscriptWords(lesson.id, language);

  const setDoneState = useCallback(
    async (value: boolean, { auto = false } = {}) => {
      setSaving(true);
      try {
        const progress = await save({ done: value });
        setDone(progress.done);
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
    [save, message, t, lesson.id],
  );

  const onPosition = useCallback(
    (seconds: number, reason: PositionReason) => {
      const position = Math.round(seconds * 10) / 10;
      if (reason === "unload") {
        saveLessonPositionOnUnload(courseId, lesson.id, position);
        return;
      }
      saveQuietly({ last_position: position });
    },
    [courseId, lesson.id, saveQuietly],
  );

  const doneRef = useLatest(done);
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
      path: to(pagePath("lesson", { id: courseId, lessonId: lesson.id })),
      save: onPosition,
      finish: () => {
        if (!doneRef.current) saveQuietly({ done: true });
      },
      refresh: () =>
        queryClient
          .fetchQuery({ ...lessonsQuery(courseId), staleTime: 0 })
          .then((data) => data.lessons.find((l) => l.id === lesson.id)?.audio?.url),
    }),
    [lesson, lang, cTitle, cover, to, courseId, onPosition, doneRef, saveQuietly, queryClient],
  );

  const goPrev = useCallback(
    () => prevId && navigate(to(pagePath("lesson", { id: courseId, lessonId: prevId }))),
    [prevId, navigate, to, courseId],
  );
  const goNext = useCallback(
    () => nextId && navigate(to(pagePath("lesson", { id: courseId, lessonId: nextId }))),
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
            onFirstPlay={() => saveQuietly({ played: true })}
            onNearEnd={onNearEnd}
            onPrevious={prevId ? goPrev : undefined}
            onNext={nextId ? goNext : undefined}
            onSourceError={onSourceError}
            words={words}
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

      {sheet}
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
            to={neighbour(prevId)}
            disabled={!prevId}
            data-testid="lesson-prev"
          >
            {t("courses:lesson.previous")}
          </ButtonLink>
          <ButtonLink to={neighbour(nextId)} disabled={!nextId} data-testid="lesson-next">
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
            <PlainButtonLink to={to(pagePath("certificate", { id: certificate.id }))} kind="primary">
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
