import { CEFR_LEVELS, TARGET_LANGUAGES } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Empty, Input, Pagination, Select, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { activePlansQuery } from "@/features/billing/api/plan-queries";
import { offersFor } from "@/features/billing/lib/offers";
import { planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { type CourseListQueryInput, courseListQuery } from "../api/course-queries";
import { CourseGrid } from "../components/course-card";
import "../courses-pages.css";
import { languageName } from "@/lib/format";

const FIRST_PAGE_SIZE = 6;
const MORE_PAGE_SIZE = 12;

/** `/courses`: the active courses, first page, and a link to the full catalogue. */
export function CoursesPage() {
  return <Catalog more={false} />;
}

/** `/courses/more`: every active course with search, filters and pages. */
export function CoursesMorePage() {
  return <Catalog more />;
}

function Catalog({ more }: { more: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const [query, setQuery] = useState<CourseListQueryInput>({
    page: 1,
    pageSize: more ? MORE_PAGE_SIZE : FIRST_PAGE_SIZE,
  });
  const list = useQuery(courseListQuery("active", query));
  // which offers open each course (from the public plan list)
  const plans = useQuery(activePlansQuery);
  const { data, isPending, isError } = list;
  usePageTitle(more ? t("courses:catalog.moreTitle") : t("courses:catalog.title"));
  const courses = data?.courses ?? [];
  const total = data?.pagination.total ?? 0;

  return (
    <div className="container section">
      <Typography.Title level={1} className="page-title">
        {more ? t("courses:catalog.moreTitle") : t("courses:catalog.title")}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t("courses:catalog.subtitle")}</Typography.Paragraph>
      {more && (
        <Space wrap className="catalog-filters" role="search">
          <Input.Search
            allowClear
            placeholder={t("courses:catalog.search")}
            aria-label={t("courses:catalog.search")}
            onSearch={(search) => setQuery((q) => ({ ...q, page: 1, search: search || undefined }))}
            style={{ width: 260 }}
          />
          <Select
            allowClear
            placeholder={t("courses:catalog.level")}
            aria-label={t("courses:catalog.level")}
            style={{ width: 140 }}
            options={CEFR_LEVELS.map((l) => ({ value: l, label: l }))}
            onChange={(level) => setQuery((q) => ({ ...q, page: 1, level }))}
          />
          <Select
            allowClear
            placeholder={t("courses:catalog.language")}
            aria-label={t("courses:catalog.language")}
            style={{ width: 180 }}
            options={TARGET_LANGUAGES.map((l) => ({ value: l, label: languageName(l, lang) }))}
            onChange={(target_language) => setQuery((q) => ({ ...q, page: 1, target_language }))}
          />
        </Space>
      )}
      {isError ? (
        <LoadError query={list} compact />
      ) : !isPending && courses.length === 0 ? (
        <Empty description={t("courses:catalog.empty")} data-testid="courses-empty" />
      ) : (
        <CourseGrid
          courses={courses}
          loading={isPending}
          skeletons={more ? 6 : 3}
          offersOf={(id) => offersFor(plans.data ?? [], id).map((p) => planName(p, lang))}
        />
      )}
      <div className="section__more">
        {more
          ? total > (query.pageSize ?? MORE_PAGE_SIZE) && (
              <Pagination
                current={query.page}
                pageSize={query.pageSize}
                total={total}
                onChange={(page) => setQuery((q) => ({ ...q, page }))}
                showSizeChanger={false}
              />
            )
          : total > courses.length && (
              <ButtonLink to={to(pagePath("coursesMore"))} data-testid="courses-more">
                {t("courses:catalog.more", { count: total })}
              </ButtonLink>
            )}
      </div>
    </div>
  );
}
