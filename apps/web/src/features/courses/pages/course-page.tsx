import PlayCircleOutlined from "@ant-design/icons-svg/es/asn/PlayCircleOutlined";
import { PERMISSIONS, pickField } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { NotFoundPage } from "@/components/not-found";
import { PlainButtonLink } from "@/components/plain-button";
import { PlainIcon } from "@/components/plain-icon";
import { withAntd } from "@/components/with-antd";
import { myCertificatesQuery } from "@/features/certificates/api/certificate-queries";
import { ApiError } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { courseTitle, useRouteCourse } from "../api/course-queries";
import { CourseOffers as ServerCourseOffers } from "../components/course-offers";
import { LessonList, UpgradeCta } from "../components/lesson-list";
import { PreviewBanner, previewQuery, usePreview } from "../components/preview-banner";
import "../courses-pages.css";
import { formatDuration, languageName } from "@/lib/format";

// staff only, never server-rendered (no session there): antd comes with them
const StaffTools = lazy(async () => ({
  default: await withAntd(import("../components/course-staff-tools").then((m) => m.CourseStaffTools)),
}));

// signed-in learners only (the server renders no session); plain markup, like the page
const CourseDownload = lazy(() =>
  import("@/features/downloads/components/download-button").then((m) => ({ default: m.DownloadButton })),
);

// The offers show once the lessons are known and only to readers the course is not open to: the
// browser loads them after the page (the public course page stays under its 150 KB); the server
// renders them in place, and hydration keeps that markup until the chunk is in.
const CourseOffers = import.meta.env.SSR
  ? ServerCourseOffers
  : lazy(() => import("../components/course-offers").then((m) => ({ default: m.CourseOffers })));

/**
 * `/courses/{id}`: the course, its lessons (locks and upgrade call on the free plan), staff tools.
 * Plain markup: a course page is where search engines and shared links bring visitors.
 */
export function CoursePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  const { course, lessons } = useRouteCourse();
  const mine = useQuery({ ...myCertificatesQuery, enabled: Boolean(user) });
  const preview = usePreview();
  usePageTitle(
    course.data ? courseTitle(course.data, lang) : t("common:pages.courseDetail"),
    course.data ? pickField(course.data, "description", lang) : undefined,
  );

  if (course.error instanceof ApiError && course.error.status === 404) return <NotFoundPage />;
  if (course.isError) {
    return (
      <div className="container section">
        <LoadError query={course} />
      </div>
    );
  }
  if (!course.data) {
    return (
      <div className="container section" aria-busy="true">
        <div className="skeleton skeleton--title" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line" />
      </div>
    );
  }
  const c = course.data;
  // the preview shows the course as learners see it: no staff tools nor draft tags
  const staff = hasPermission(user, PERMISSIONS.coursesManage) && !preview;
  const query = previewQuery(preview);
  const list = lessons.data?.lessons ?? [];
  const locked = list.filter((l) => l.locked).length;
  const open = list.filter((l) => !l.locked);
  const start = open.find((l) => !l.progress?.done) ?? open[0];
  const started = list.some((l) => l.progress);
  const description = pickField(c, "description", lang);
  const certificate = mine.data?.find((x) => x.course_id === c.id && x.status === "valid");

  return (
    <div className="container section course-page">
      {preview && <PreviewBanner course={c} />}
      <div className="course-page__top">
        <div className="course-page__media">
          {c.cover_url ? (
            // the largest image of the first screen: asked for first
            <img className="course-page__cover" src={c.cover_url} alt="" fetchPriority="high" />
          ) : (
            <div className="course-page__cover course-card__cover--empty" aria-hidden="true">
              {c.target_language.toUpperCase()}
            </div>
          )}
        </div>
        <div className="course-page__info">
          <h1 className="heading heading--1 page-title">{courseTitle(c, lang)}</h1>
          <div className="course-page__tags">
            <span className="tag tag--blue">{t("courses:levelValue", { level: c.level })}</span>
            <span className="tag">
              {t("courses:learn", { language: languageName(c.target_language, lang) })}
            </span>
            {staff && !c.active && <span className="tag tag--orange">{t("courses:draft")}</span>}
          </div>
          {description && <p className="course-page__description">{description}</p>}
          <dl className="course-page__facts">
            <div>
              <dt>{t("courses:lessonsLabel")}</dt>
              <dd>{c.lessons_count}</dd>
            </div>
            <div>
              <dt>{t("courses:durationLabel")}</dt>
              <dd>{formatDuration(c.total_duration, lang)}</dd>
            </div>
          </dl>
          {start && (
            <PlainButtonLink
              kind="primary"
              size="large"
              icon={<PlainIcon icon={PlayCircleOutlined} />}
              to={to(pagePath("lesson", { id: c.id, lessonId: start.id }, query))}
              data-testid="course-start"
            >
              {started ? t("courses:continue") : t("courses:start")}
            </PlainButtonLink>
          )}
          {certificate && (
            <PlainButtonLink
              to={to(pagePath("certificate", { id: certificate.id }))}
              data-testid="course-certificate"
            >
              {t("courses:certificate")}
            </PlainButtonLink>
          )}
          {user && open.some((l) => l.audio) && (
            <Suspense fallback={null}>
              <CourseDownload course={c} lessons={list} scope="course" />
            </Suspense>
          )}
          {staff && (
            <Suspense fallback={null}>
              <StaffTools courseId={c.id} popular={c.popular} />
            </Suspense>
          )}
        </div>
      </div>

      <section aria-labelledby="lessons-title" className="course-page__lessons">
        <h2 className="heading heading--2" id="lessons-title">
          {t("courses:lessons.title")}
        </h2>
        {lessons.data?.access === "free" && locked > 0 && <UpgradeCta locked={locked} />}
        {lessons.data?.access === "free" && !staff && (
          <Suspense fallback={null}>
            <CourseOffers courseId={c.id} />
          </Suspense>
        )}
        <div className="card">
          <div className="card__body">
            {lessons.isPending ? (
              <div aria-busy="true">
                <div className="skeleton skeleton--line" />
                <div className="skeleton skeleton--line" />
                <div className="skeleton skeleton--line" />
              </div>
            ) : (
              <LessonList courseId={c.id} lessons={list} dripDays={c.drip_days} query={query} />
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
