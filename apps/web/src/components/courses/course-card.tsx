import { ClockCircleOutlined, ReadOutlined } from "@ant-design/icons";
import type { CourseItem } from "@parlons/contract";
import { Card, Col, Row, Skeleton, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { courseTitle } from "../../lib/courses-api";
import { useLang, useLocalePath } from "../../lib/use-locale";
import "./courses.css";
import { formatDuration, languageName } from "../../lib/format";

/** A course in a grid: cover, title, level, language taught, lesson count, duration. */
export function CourseCard({ course }: { course: CourseItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const title = courseTitle(course, lang);
  return (
    <Card
      className="course-card"
      data-testid="course-card"
      cover={
        course.cover_url ? (
          <img className="course-card__cover" src={course.cover_url} alt="" loading="lazy" />
        ) : (
          <div className="course-card__cover course-card__cover--empty" aria-hidden="true">
            {course.target_language.toUpperCase()}
          </div>
        )
      }
    >
      <Typography.Title level={3} className="course-card__title">
        <Link to={to(`/courses/${course.id}`)} className="course-card__link">
          {title}
        </Link>
      </Typography.Title>
      <div className="course-card__tags">
        <Tag color="blue" title={t("courses:level")}>
          {course.level}
        </Tag>
        <Tag>{t("courses:learn", { language: languageName(course.target_language, lang) })}</Tag>
      </div>
      <Typography.Text type="secondary" className="course-card__meta">
        <span>
          <ReadOutlined aria-hidden="true" /> {t("courses:lessonCount", { count: course.lessons_count })}
        </span>
        {course.total_duration > 0 && (
          <span>
            <ClockCircleOutlined aria-hidden="true" /> {formatDuration(course.total_duration, lang)}
          </span>
        )}
      </Typography.Text>
    </Card>
  );
}

/** Grid of cards, with skeleton cards while loading. */
export function CourseGrid({
  courses,
  loading,
  skeletons = 3,
}: {
  courses: CourseItem[];
  loading?: boolean;
  skeletons?: number;
}) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Row gutter={[24, 24]} aria-busy="true" aria-label={t("courses:loading")}>
        {Array.from({ length: skeletons }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
          <Col xs={24} sm={12} lg={8} key={i}>
            <Card className="course-card" data-testid="course-card-skeleton">
              <Skeleton.Node active style={{ width: "100%", height: 140 }} />
              <Skeleton active paragraph={{ rows: 2 }} />
            </Card>
          </Col>
        ))}
      </Row>
    );
  }
  return (
    <Row gutter={[24, 24]}>
      {courses.map((course) => (
        <Col xs={24} sm={12} lg={8} key={course.id}>
          <CourseCard course={course} />
        </Col>
      ))}
    </Row>
  );
}
