import ClockCircleOutlined from "@ant-design/icons-svg/es/asn/ClockCircleOutlined";
import ReadOutlined from "@ant-design/icons-svg/es/asn/ReadOutlined";
import type { CourseItem } from "@parlons/contract";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PlainIcon } from "@/components/plain-icon";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { courseTitle } from "../api/course-queries";
import "./courses.css";
import { formatDuration, languageName } from "@/lib/format";

/** A course in a grid: cover, title, level, language taught, lesson count, duration. Plain markup (home page). */
/** `eager`: in the first row, on the first screen (lazy loading would delay the largest paint). */
/** `offers`: the names of the offers that open the course (the catalogue shows them). */
function CourseCard({ course, eager, offers }: { course: CourseItem; eager: boolean; offers?: string[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const title = courseTitle(course, lang);
  return (
    <div className="card course-card" data-testid="course-card">
      <div className="card__cover">
        {course.cover_url ? (
          <img
            className="course-card__cover"
            src={course.cover_url}
            alt=""
            loading={eager ? "eager" : "lazy"}
          />
        ) : (
          <div className="course-card__cover course-card__cover--empty" aria-hidden="true">
            {course.target_language.toUpperCase()}
          </div>
        )}
      </div>
      <div className="card__body">
        <h3 className="heading heading--3 course-card__title">
          <Link to={to(pagePath("course", { id: course.id }))} className="course-card__link">
            {title}
          </Link>
        </h3>
        <div className="course-card__tags">
          <span className="tag tag--blue" title={t("courses:level")}>
            {course.level}
          </span>
          <span className="tag">
            {t("courses:learn", { language: languageName(course.target_language, lang) })}
          </span>
        </div>
        <span className="text-secondary course-card__meta">
          <span>
            <PlainIcon icon={ReadOutlined} /> {t("courses:lessonCount", { count: course.lessons_count })}
          </span>
          {course.total_duration > 0 && (
            <span>
              <PlainIcon icon={ClockCircleOutlined} /> {formatDuration(course.total_duration, lang)}
            </span>
          )}
        </span>
        {offers && offers.length > 0 && (
          <span className="text-secondary course-card__offers" data-testid="course-card-offers">
            {t("courses:offers.inCard", { offers: offers.join(" · ") })}
          </span>
        )}
      </div>
    </div>
  );
}

/** Grid of cards, with skeleton cards while loading. */
export function CourseGrid({
  courses,
  loading,
  skeletons = 3,
  offersOf,
}: {
  courses: CourseItem[];
  loading?: boolean;
  skeletons?: number;
  /** The names of the offers that open a course, shown on its card. */
  offersOf?: (courseId: string) => string[];
}) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <div className="grid grid--courses" role="status" aria-busy="true" aria-label={t("courses:loading")}>
        {Array.from({ length: skeletons }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
          <div className="card course-card" data-testid="course-card-skeleton" key={i}>
            <div className="skeleton skeleton--cover" />
            <div className="card__body">
              <div className="skeleton skeleton--title" />
              <div className="skeleton skeleton--line" />
              <div className="skeleton skeleton--line" />
            </div>
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="grid grid--courses">
      {courses.map((course, i) => (
        <CourseCard course={course} eager={i < 3} key={course.id} offers={offersOf?.(course.id)} />
      ))}
    </div>
  );
}
