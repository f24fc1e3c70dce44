import { useQuery } from "@tanstack/react-query";
import { Col, Form, Radio, Select } from "antd";
import { useTranslation } from "react-i18next";
import { courseListQuery, courseTitle } from "@/features/courses/api/course-queries";
import { useLang } from "@/lib/use-locale";

/** What a plan opens: every course, or the courses picked here (one course: a single-course plan). */
export function PlanCoursesField() {
  const { t } = useTranslation();
  const lang = useLang();
  const form = Form.useFormInstance();
  const scope = Form.useWatch("scope", form);
  const courses = useQuery({ ...courseListQuery("staff", { pageSize: 100 }), enabled: scope === "courses" });
  const options = (courses.data?.courses ?? []).map((c) => ({ value: c.id, label: courseTitle(c, lang) }));

  return (
    <>
      <Col xs={24}>
        <Form.Item name="scope" label={t("billing:plans.form.scope")}>
          <Radio.Group
            data-testid="plan-scope"
            options={[
              { value: "all", label: t("billing:plans.form.scopeAll") },
              { value: "courses", label: t("billing:plans.form.scopeCourses") },
            ]}
          />
        </Form.Item>
      </Col>
      {scope === "courses" && (
        <Col xs={24}>
          <Form.Item
            name="course_ids"
            label={t("billing:plans.form.courses")}
            extra={t("billing:plans.form.coursesHint")}
            rules={[
              { required: true, type: "array", min: 1, message: t("billing:plans.form.coursesRequired") },
            ]}
          >
            <Select
              mode="multiple"
              data-testid="plan-courses"
              loading={courses.isPending}
              options={options}
              optionFilterProp="label"
              placeholder={t("billing:plans.form.coursesPlaceholder")}
            />
          </Form.Item>
        </Col>
      )}
    </>
  );
}
