import { DeleteOutlined, EditOutlined, OrderedListOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Space, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { ApiError, errorText } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";
import { courseKeys } from "../api/course-queries";
import { deleteCourse, useTogglePopular } from "../api/courses-api";

/** The course page's staff tools (edit, lessons, popular, delete): their own chunk, with antd. */
export function CourseStaffTools({ courseId, popular }: { courseId: string; popular: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const popularMutation = useTogglePopular(courseId, {
    onSuccess: (course) => {
      message.success(course.popular ? t("courses:staff.popularOn") : t("courses:staff.popularOff"));
    },
  });

  const remove = (force: boolean) =>
    deleteCourse(courseId, force).then(() => {
      message.success(t("courses:staff.deleted"));
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      navigate(to(pagePath("courses")), { replace: true });
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
        <ButtonLink
          icon={<EditOutlined />}
          to={to(pagePath("courseEdit", {}, { id: courseId }))}
          data-testid="course-edit"
        >
          {t("courses:staff.edit")}
        </ButtonLink>
        <ButtonLink
          icon={<OrderedListOutlined />}
          to={to(pagePath("lessons", { id: courseId }))}
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
