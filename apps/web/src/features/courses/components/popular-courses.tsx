import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { PlainButtonLink } from "@/components/plain-button";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";
import { courseListQuery } from "../api/course-queries";
import { CourseGrid } from "./course-card";

/** Home page section: the popular courses (hidden when there are none). */
export function PopularCourses() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { data, isPending, isError } = useQuery(courseListQuery("popular", { pageSize: 6 }));
  if (isError || (!isPending && data.courses.length === 0)) return null;
  return (
    <section className="container section" aria-labelledby="popular-title" data-testid="popular-courses">
      <h2 id="popular-title" className="heading heading--2">
        {t("courses:popular.title")}
      </h2>
      <p className="text-secondary">{t("courses:popular.subtitle")}</p>
      <CourseGrid courses={data?.courses ?? []} loading={isPending} />
      <div className="section__more">
        <PlainButtonLink to={to(pagePath("courses"))}>{t("courses:popular.all")}</PlainButtonLink>
      </div>
    </section>
  );
}
