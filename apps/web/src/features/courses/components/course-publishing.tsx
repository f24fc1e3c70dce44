import { EyeOutlined } from "@ant-design/icons";
import { type CourseItem, PUBLISH_PROBLEMS } from "@parlons/contract";
import { Alert, App, Button, Card, Input, Space, Tag, Typography } from "antd";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { ApiError, errorText } from "@/lib/api-error";
import { formatDateTime } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePublishCourse } from "../api/courses-api";

/** Where a course stands: live, scheduled for a time, or a draft. */
const statusOf = (course: CourseItem) =>
  course.active ? "published" : course.publish_at ? "scheduled" : "draft";
const STATUS_COLOR = { published: "green", scheduled: "blue", draft: "orange" } as const;

/** The missing pieces of a refused publication, each said in the page's language. */
function useProblems() {
  const { t } = useTranslation();
  return (errors: Record<string, string[]>) =>
    PUBLISH_PROBLEMS.flatMap((field) => {
      const names = errors[field];
      if (!names?.length) return [];
      return [t(`courses:publish.missing.${field}`, { count: names.length, names: names.join(", ") })];
    });
}

/**
 * Staff: a course's publication. A draft is published now or at a chosen time, once it has a
 * published lesson with audio and titles in French (else the server's refusal is listed, in the
 * page's language); a live or scheduled course goes back to a draft; the preview opens the course
 * as learners see it.
 */
export function CoursePublishing({ course }: { course: CourseItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { message } = App.useApp();
  const whenId = useId();
  const [when, setWhen] = useState("");
  const [problems, setProblems] = useState<string[]>([]);
  const describe = useProblems();
  const status = statusOf(course);
  const publish = usePublishCourse(course.id, {
    onSuccess: (saved) => {
      setProblems([]);
      const next = statusOf(saved);
      message.success(
        t(`courses:publish.done.${next}`, { when: formatDateTime(saved.publish_at, lang, "long") }),
      );
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === "COURSE_NOT_PUBLISHABLE" && error.errors) {
        setProblems(describe(error.errors));
      } else {
        message.error(errorText(error));
      }
    },
  });

  return (
    <Card size="small" title={t("courses:publish.title")} data-testid="course-publishing">
      <Space orientation="vertical" style={{ width: "100%" }}>
        <Typography.Paragraph data-testid="course-status" data-status={status} style={{ margin: 0 }}>
          <Tag color={STATUS_COLOR[status]}>{t(`courses:publish.status.${status}`)}</Tag>{" "}
          {t(`courses:publish.explain.${status}`, {
            when: formatDateTime(course.publish_at, lang, "long"),
          })}
        </Typography.Paragraph>
        {problems.length > 0 && (
          <Alert
            type="warning"
            showIcon
            role="alert"
            data-testid="publish-problems"
            title={t("courses:publish.notYet")}
            description={
              <ul className="publish-problems">
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            }
          />
        )}
        <Space wrap align="end">
          {status !== "published" && (
            <Button
              type="primary"
              loading={publish.isPending}
              onClick={() => publish.mutate({ at: null })}
              data-testid="course-publish"
            >
              {t("courses:publish.now")}
            </Button>
          )}
          {status !== "published" && (
            <Space size={4} align="end">
              <span>
                <label htmlFor={whenId} className="publish-when__label">
                  {t("courses:publish.atLabel")}
                </label>
                <Input
                  id={whenId}
                  type="datetime-local"
                  value={when}
                  onChange={(e) => setWhen(e.target.value)}
                  data-testid="course-publish-at"
                />
              </span>
              <Button
                disabled={!when}
                loading={publish.isPending}
                onClick={() => publish.mutate({ at: new Date(when).toISOString() })}
                data-testid="course-schedule"
              >
                {t("courses:publish.schedule")}
              </Button>
            </Space>
          )}
          {status !== "draft" && (
            <Button
              loading={publish.isPending}
              onClick={() => publish.mutate(null)}
              data-testid="course-unpublish"
            >
              {t(status === "published" ? "courses:publish.unpublish" : "courses:publish.cancel")}
            </Button>
          )}
          <ButtonLink
            icon={<EyeOutlined />}
            to={to(pagePath("course", { id: course.id }, { preview: "1" }))}
            data-testid="course-preview"
          >
            {t("courses:publish.preview")}
          </ButtonLink>
        </Space>
      </Space>
    </Card>
  );
}
