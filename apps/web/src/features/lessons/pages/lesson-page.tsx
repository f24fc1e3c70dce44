import { useQuery } from "@tanstack/react-query";
import { Breadcrumb, Card, Col, Row, Skeleton, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { NotFoundPage } from "@/components/not-found";
import { courseQuery, courseTitle, lessonsQuery, lessonTitle } from "@/features/courses/api/course-queries";
import { LessonList, UpgradeCta, usePaceText } from "@/features/courses/components/lesson-list";
import { PreviewBanner, previewQuery, usePreview } from "@/features/courses/components/preview-banner";
import { DownloadButton } from "@/features/downloads/components/download-button";
import { ApiError } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { LessonBodyText } from "../components/lesson-body-text";
import { OpenLesson } from "../components/open-lesson";
import "../lessons.css";

/** `/courses/{id}/lessons/{lessonId}`: the player, the lesson's text and transcript, links, navigation, done. */
export function LessonPage() {
  const { id = "", lessonId = "" } = useParams();
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const paceText = usePaceText();
  const preview = usePreview();
  const query = previewQuery(preview);
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
      {preview && <PreviewBanner course={c} />}
      <Breadcrumb
        items={[
          { title: <Link to={to(pagePath("courses"))}>{t("courses:catalog.title")}</Link> },
          { title: <Link to={to(pagePath("course", { id: c.id }, query))}>{cTitle}</Link> },
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
              language={c.target_language}
              lesson={lesson}
              prevId={prev?.id}
              nextId={next?.id}
            />
          )}
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t("courses:lessons.title")} size="small">
            {lessons.data?.access === "free" && locked > 0 && !lesson.locked && (
              <ButtonLink type="link" to={to(pagePath("pricing"))} className="lesson-page__unlock">
                {t("courses:upgrade.short")}
              </ButtonLink>
            )}
            <LessonList
              courseId={c.id}
              lessons={list}
              currentId={lesson.id}
              dripDays={c.drip_days}
              query={query}
            />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
