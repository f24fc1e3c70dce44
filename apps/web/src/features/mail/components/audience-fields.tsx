import { BUILT_IN_ROLES, pickField } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Form, InputNumber, Select } from "antd";
import { useTranslation } from "react-i18next";
import { speakOptions } from "@/lib/languages";
import { useLang } from "@/lib/use-locale";
import { audienceCoursesQuery } from "../api/campaigns-api";
import { ANY, INACTIVE_DAYS } from "../lib/audience";

/** Who a campaign goes to: role, plan, language spoken, a course followed, inactivity. */
export function AudienceFields() {
  const { t } = useTranslation();
  const lang = useLang();
  const courses = useQuery(audienceCoursesQuery);
  return (
    <>
      <Form.Item name="role" label={t("mail:send.role")}>
        <Select
          data-testid="mail-audience-role"
          options={[ANY, ...BUILT_IN_ROLES].map((role) => ({
            value: role,
            label: role === ANY ? t("mail:send.any") : role,
          }))}
        />
      </Form.Item>
      <Form.Item name="plan" label={t("mail:send.plan")}>
        <Select
          data-testid="mail-audience-plan"
          options={[
            { value: ANY, label: t("mail:send.any") },
            { value: "free", label: t("mail:send.plans.free") },
            { value: "premium", label: t("mail:send.plans.premium") },
          ]}
        />
      </Form.Item>
      <Form.Item name="speak" label={t("mail:send.speak")}>
        <Select
          data-testid="mail-audience-speak"
          options={[{ value: ANY, label: t("mail:send.any") }, ...speakOptions()]}
        />
      </Form.Item>
      <Form.Item
        name="course_id"
        label={t("mail:send.course")}
        extra={t("mail:send.courseHelp")}
        {...(courses.isError
          ? { validateStatus: "warning" as const, help: t("mail:send.coursesError") }
          : {})}
      >
        <Select
          data-testid="mail-audience-course"
          loading={courses.isPending}
          showSearch={{ optionFilterProp: "label" }}
          notFoundContent={t("mail:send.noCourse")}
          options={[
            { value: ANY, label: t("mail:send.anyCourse") },
            ...(courses.data?.courses ?? []).map((c) => ({
              value: c.id,
              label: pickField(c, "title", lang),
            })),
          ]}
        />
      </Form.Item>
      <Form.Item
        name="inactive_days"
        label={t("mail:send.inactive")}
        extra={t("mail:send.inactiveHelp")}
        rules={[
          {
            type: "integer",
            min: INACTIVE_DAYS.min,
            max: INACTIVE_DAYS.max,
            message: t("mail:send.inactiveInvalid", INACTIVE_DAYS),
          },
        ]}
      >
        <InputNumber
          data-testid="mail-audience-inactive"
          min={INACTIVE_DAYS.min}
          max={INACTIVE_DAYS.max}
          precision={0}
          placeholder={t("mail:send.anyActivity")}
          suffix={t("mail:send.days")}
          style={{ width: "100%" }}
        />
      </Form.Item>
    </>
  );
}
