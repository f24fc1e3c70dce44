import { useQuery } from "@tanstack/react-query";
import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { courseListQuery } from "../../lib/courses-api";
import { useLocalePath } from "../../lib/use-locale";
import { ButtonLink } from "../button-link";
import { CourseGrid } from "./course-card";

/** Home page section: the popular courses (hidden when there are none). */
export function PopularCourses() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { data, isPending, isError } = useQuery(courseListQuery("popular", { pageSize: 6 }));
  if (isError || (!isPending && data.courses.length === 0)) return null;
  return (
    <section className="container section" aria-labelledby="popular-title" data-testid="popular-courses">
      <Typography.Title id="popular-title" level={2}>
        {t("courses:popular.title")}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t("courses:popular.subtitle")}</Typography.Paragraph>
      <CourseGrid courses={data?.courses ?? []} loading={isPending} />
      <div className="section__more">
        <ButtonLink to={to("/courses")}>{t("courses:popular.all")}</ButtonLink>
      </div>
    </section>
  );
}
