import EyeOutlined from "@ant-design/icons-svg/es/asn/EyeOutlined";
import { type CourseItem, PERMISSIONS } from "@parlons/contract";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PlainButtonLink } from "@/components/plain-button";
import { PlainIcon } from "@/components/plain-icon";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLocalePath } from "@/lib/use-locale";

/**
 * "Preview as a learner" (`?preview=1`): staff see a course and its lessons as learners do (no staff
 * tools nor draft tags), drafts included since staff may read them. Learners and visitors never
 * get there: a draft is 404 to them, and the parameter does nothing for them.
 */
export function usePreview(): boolean {
  const [params] = useSearchParams();
  const { user } = useSession();
  return (
    params.has("preview") &&
    (hasPermission(user, PERMISSIONS.coursesManage) || hasPermission(user, PERMISSIONS.lessonsManage))
  );
}

/** The query that keeps the preview on the links of a previewed page. */
export const previewQuery = (preview: boolean) => (preview ? { preview: "1" } : undefined);

/** Says that the page is a preview, whether learners can see the course, and the way back. */
export function PreviewBanner({ course }: { course: CourseItem }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const status = course.active ? "published" : course.publish_at ? "scheduled" : "draft";
  return (
    <div className="alert preview-banner" role="status" data-testid="preview-banner">
      <PlainIcon icon={EyeOutlined} className="alert__icon" />
      <div className="alert__content">
        <div className="alert__title">{t("courses:preview.title")}</div>
        <div>{t(`courses:preview.${status}`)}</div>
      </div>
      <PlainButtonLink to={to(pagePath("lessons", { id: course.id }))} data-testid="preview-exit">
        {t("courses:preview.exit")}
      </PlainButtonLink>
    </div>
  );
}
