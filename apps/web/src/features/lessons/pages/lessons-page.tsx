import { PERMISSIONS } from "@parlons/contract";
import { Breadcrumb, Card, Skeleton, Space, Typography } from "antd";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LoadError } from "@/components/load-error";
import { NotFoundPage } from "@/components/not-found";
import { courseTitle, useRouteCourse } from "@/features/courses/api/course-queries";
import { LessonList, UpgradeCta } from "@/features/courses/components/lesson-list";
import { ApiError } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import "../lessons.css";

// staff only: the lesson editor (form, upload, cue editor, WebVTT) stays out of the learner's page
const StaffLessons = lazy(() =>
  import("../components/staff-lessons").then((m) => ({ default: m.StaffLessons })),
);

// staff only too: publishing the course (publish now or at a date, preview, what is missing)
const CoursePublishing = lazy(() =>
  import("@/features/courses/components/course-publishing").then((m) => ({ default: m.CoursePublishing })),
);

/** `/courses/{id}/lessons`: the learner's lesson list, or the staff's lesson management. */
export function LessonsPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  const { course, lessons } = useRouteCourse();
  const title = course.data ? courseTitle(course.data, lang) : "";
  usePageTitle(title ? t("courses:lessons.pageTitle", { title }) : t("common:pages.lessons"));

  if (course.error instanceof ApiError && course.error.status === 404) return <NotFoundPage />;
  if (course.isError) {
    return <LoadError query={course} />;
  }
  if (!course.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const staff = hasPermission(user, PERMISSIONS.lessonsManage);
  const list = lessons.data?.lessons ?? [];
  const locked = list.filter((l) => l.locked).length;

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Breadcrumb
        items={[
          { title: <Link to={to(pagePath("courses"))}>{t("courses:catalog.title")}</Link> },
          { title: <Link to={to(pagePath("course", { id: course.data.id }))}>{title}</Link> },
          { title: t("courses:lessons.title") },
        ]}
      />
      <Typography.Title level={1} className="page-title">
        {t("courses:lessons.pageTitle", { title })}
      </Typography.Title>
      {!staff && lessons.data?.access === "free" && locked > 0 && <UpgradeCta locked={locked} />}
      {hasPermission(user, PERMISSIONS.coursesManage) && (
        <Suspense fallback={null}>
          <CoursePublishing course={course.data} />
        </Suspense>
      )}
      <Card>
        {lessons.isError ? (
          <LoadError query={lessons} compact />
        ) : lessons.isPending ? (
          <Skeleton active />
        ) : staff ? (
          <Suspense fallback={<Skeleton active />}>
            <StaffLessons courseId={course.data.id} lessons={list} />
          </Suspense>
        ) : (
          <LessonList courseId={course.data.id} lessons={list} dripDays={course.data.drip_days} />
        )}
      </Card>
    </Space>
  );
}
