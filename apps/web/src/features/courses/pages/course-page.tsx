import { DeleteOutlined, EditOutlined, OrderedListOutlined, PlayCircleOutlined } from "@ant-design/icons";
import { PERMISSIONS } from "@parlons/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Col, Descriptions, Row, Skeleton, Space, Switch, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { ButtonLink } from "../../../components/button-link";
import { LessonList, UpgradeCta } from "../../../components/courses/lesson-list";
import { NotFoundPage } from "../../../components/not-found";
import { ApiError, errorText } from "../../../lib/api";
import {
  courseDescription,
  courseKeys,
  courseQuery,
  courseTitle,
  deleteCourse,
  lessonsQuery,
  togglePopular,
} from "../../../lib/courses-api";
import { hasPermission, useSession } from "../../../lib/session";
import { useLang, useLocalePath } from "../../../lib/use-locale";
import { usePageTitle } from "../../../lib/use-page-title";
import "../courses-pages.css";
import { formatDuration, languageName } from "../../../lib/format";

/** `/courses/{id}`: the course, its lessons (locks and upgrade call on the free plan), staff tools. */
export function CoursePage() {
  const { id = "" } = useParams();
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  const course = useQuery(courseQuery(id));
  const lessons = useQuery(lessonsQuery(course.data?.id));
  usePageTitle(
    course.data ? courseTitle(course.data, lang) : t("common:pages.courseDetail"),
    course.data ? courseDescription(course.data, lang) : undefined,
  );

  if (course.error instanceof ApiError && course.error.status === 404) return <NotFoundPage />;
  if (!course.data) {
    return (
      <div className="container section">
        <Skeleton active paragraph={{ rows: 6 }} />
      </div>
    );
  }
  const c = course.data;
  const staff = hasPermission(user, PERMISSIONS.coursesManage);
  const list = lessons.data?.lessons ?? [];
  const locked = list.filter((l) => l.locked).length;
  const open = list.filter((l) => !l.locked);
  const start = open.find((l) => !l.progress?.done) ?? open[0];
  const started = list.some((l) => l.progress);
  const description = courseDescription(c, lang);

  return (
    <div className="container section course-page">
      <Row gutter={[32, 24]}>
        <Col xs={24} md={9}>
          {c.cover_url ? (
            <img className="course-page__cover" src={c.cover_url} alt="" />
          ) : (
            <div className="course-page__cover course-card__cover--empty" aria-hidden="true">
              {c.target_language.toUpperCase()}
            </div>
          )}
        </Col>
        <Col xs={24} md={15}>
          <Typography.Title level={1} className="page-title">
            {courseTitle(c, lang)}
          </Typography.Title>
          <Space wrap>
            <Tag color="blue">{t("courses:levelValue", { level: c.level })}</Tag>
            <Tag>{t("courses:learn", { language: languageName(c.target_language, lang) })}</Tag>
            {staff && !c.active && <Tag color="orange">{t("courses:inactive")}</Tag>}
          </Space>
          {description && (
            <Typography.Paragraph className="course-page__description">{description}</Typography.Paragraph>
          )}
          <Descriptions size="small" column={2} className="course-page__facts">
            <Descriptions.Item label={t("courses:lessonsLabel")}>{c.lessons_count}</Descriptions.Item>
            <Descriptions.Item label={t("courses:durationLabel")}>
              {formatDuration(c.total_duration, lang)}
            </Descriptions.Item>
          </Descriptions>
          {start && (
            <ButtonLink
              type="primary"
              size="large"
              icon={<PlayCircleOutlined />}
              to={to(`/courses/${c.id}/lessons/${start.id}`)}
              data-testid="course-start"
            >
              {started ? t("courses:continue") : t("courses:start")}
            </ButtonLink>
          )}
          {staff && <StaffTools courseId={c.id} popular={c.popular} />}
        </Col>
      </Row>

      <section aria-labelledby="lessons-title" className="course-page__lessons">
        <Typography.Title level={2} id="lessons-title">
          {t("courses:lessons.title")}
        </Typography.Title>
        {lessons.data?.access === "free" && locked > 0 && <UpgradeCta locked={locked} />}
        <Card>{lessons.isPending ? <Skeleton active /> : <LessonList courseId={c.id} lessons={list} />}</Card>
      </section>
    </div>
  );
}

function StaffTools({ courseId, popular }: { courseId: string; popular: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const popularMutation = useMutation({
    mutationFn: (value: boolean) => togglePopular(courseId, value),
    onSuccess: (course) => {
      message.success(course.popular ? t("courses:staff.popularOn") : t("courses:staff.popularOff"));
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
    },
  });

  const remove = (force: boolean) =>
    deleteCourse(courseId, force).then(() => {
      message.success(t("courses:staff.deleted"));
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      navigate(to("/courses"), { replace: true });
    });

  const confirmDelete = () =>
    modal.confirm({
      title: t("courses:staff.deleteTitle"),
      content: t("courses:staff.deleteConfirm"),
      okText: t("common:actions.ok"),
      cancelText: t("common:actions.cancel"),
      okButtonProps: { danger: true },
      onOk: () =>
        remove(false).catch((error) => {
          if (error instanceof ApiError && error.status === 409) {
            modal.confirm({
              title: t("courses:staff.deleteTitle"),
              content: t("courses:staff.deleteForce"),
              okText: t("common:actions.ok"),
              cancelText: t("common:actions.cancel"),
              okButtonProps: { danger: true },
              onOk: () => remove(true).catch((e) => message.error(errorText(e))),
            });
          } else {
            message.error(errorText(error));
          }
        }),
    });

  return (
    <Card size="small" className="staff-tools" title={t("courses:staff.title")}>
      <Space wrap>
        <ButtonLink icon={<EditOutlined />} to={to(`/courses/edit?id=${courseId}`)} data-testid="course-edit">
          {t("courses:staff.edit")}
        </ButtonLink>
        <ButtonLink
          icon={<OrderedListOutlined />}
          to={to(`/courses/${courseId}/lessons`)}
          data-testid="manage-lessons"
        >
          {t("courses:staff.lessons")}
        </ButtonLink>
        <span className="inline-switch">
          <Switch
            checked={popular}
            loading={popularMutation.isPending}
            onChange={(v) => popularMutation.mutate(v)}
            data-testid="course-popular"
            aria-label={t("courses:form.popular")}
          />{" "}
          {t("courses:form.popular")}
        </span>
        <Button danger icon={<DeleteOutlined />} onClick={confirmDelete} data-testid="course-delete">
          {t("courses:staff.delete")}
        </Button>
      </Space>
    </Card>
  );
}
