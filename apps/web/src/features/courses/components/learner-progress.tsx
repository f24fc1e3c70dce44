import { BookOutlined, CheckCircleOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, List, Progress, Skeleton, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { formatDate } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { courseTitle, customerProgressQuery, lessonTitle } from "../api/course-queries";
import "./courses.css";

/** Dashboard: courses in progress with progress bars, the next lesson, lessons done this week. */
export function LearnerProgress() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const progress = useQuery(customerProgressQuery());
  const { data, isPending } = progress;

  return (
    <Card
      data-testid="learner-progress"
      title={
        <span>
          <BookOutlined /> {t("courses:progress.title")}
        </span>
      }
      extra={
        data && (
          <Statistic
            className="progress-week"
            data-testid="done-this-week"
            title={t("courses:progress.thisWeek")}
            value={data.lessons_done_this_week}
            prefix={<CheckCircleOutlined aria-hidden="true" />}
          />
        )
      }
    >
      {progress.isError ? (
        <LoadError query={progress} compact />
      ) : isPending ? (
        <Skeleton active />
      ) : !data || data.courses.length === 0 ? (
        <Empty description={t("courses:progress.none")}>
          <ButtonLink to={to(pagePath("courses"))} type="primary">
            {t("courses:progress.browse")}
          </ButtonLink>
        </Empty>
      ) : (
        <List
          itemLayout="vertical"
          dataSource={data.courses}
          renderItem={({ course, overview }) => {
            const next = overview.next_lesson;
            return (
              <List.Item key={course.id} data-testid="progress-course">
                <Typography.Title level={3} className="progress-course__title">
                  <Link to={to(pagePath("course", { id: course.id }))}>{courseTitle(course, lang)}</Link>
                </Typography.Title>
                <div data-testid="progress-bar" data-percent={overview.percent}>
                  <Progress
                    percent={overview.percent}
                    aria-label={t("courses:progress.bar", { title: courseTitle(course, lang) })}
                  />
                </div>
                <Typography.Text type="secondary">
                  {t("courses:progress.done", {
                    count: overview.lessons_done,
                    total: overview.lessons_total,
                  })}
                </Typography.Text>
                <div className="progress-course__next">
                  {next?.drip ? (
                    // closed by the course's pace: when it opens, not a play link nor an upgrade
                    <div data-testid="next-lesson-paced">
                      <Typography.Text strong>
                        {t("courses:progress.nextPaced", { title: lessonTitle(next, lang) })}
                      </Typography.Text>
                      <br />
                      <Typography.Text type="secondary">
                        {next.drip.reason === "order"
                          ? t("courses:pace.order")
                          : next.drip.opens_at
                            ? t("courses:pace.date", { date: formatDate(next.drip.opens_at, lang) ?? "" })
                            : t("courses:progress.pacedLater")}
                      </Typography.Text>
                    </div>
                  ) : next ? (
                    <ButtonLink
                      type="primary"
                      to={
                        next.locked
                          ? to(pagePath("pricing"))
                          : to(pagePath("lesson", { id: course.id, lessonId: next.id }))
                      }
                      data-testid="continue-lesson"
                    >
                      {next.locked
                        ? t("courses:progress.unlockNext", { title: lessonTitle(next, lang) })
                        : t("courses:progress.continue", { title: lessonTitle(next, lang) })}
                    </ButtonLink>
                  ) : (
                    <Typography.Text type="success">{t("courses:progress.completed")}</Typography.Text>
                  )}
                </div>
              </List.Item>
            );
          }}
        />
      )}
    </Card>
  );
}
