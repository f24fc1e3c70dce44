import {
  CEFR_LEVELS,
  type CourseBody,
  type CourseItem,
  DRIP_MODES,
  TARGET_LANGUAGES,
} from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
  Typography,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LocaleTabs, longText, titleText, useLocaleTab } from "@/components/locale-tabs";
import { NotFoundPage } from "@/components/not-found";
import { UploadField } from "@/components/upload-field";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { courseQuery } from "../api/course-queries";
import "../courses-pages.css";
import { languageName } from "@/lib/format";
import { useSaveCourse } from "../api/courses-api";

type FormValues = Omit<CourseBody, "position" | "slug">;

const EMPTY: FormValues = {
  title_fr: "",
  title_en: "",
  description_fr: "",
  description_en: "",
  title_es: "",
  description_es: "",
  target_language: "en",
  level: "A1",
  cover: null,
  // a new course is a draft: learners and the public catalogue see it once staff publish it
  active: false,
  popular: false,
  drip_mode: "open",
  drip_days: 7,
};

/** `/courses/create`. */
export function CourseCreatePage() {
  const { t } = useTranslation();
  usePageTitle(t("courses:form.createTitle"));
  return <CourseForm />;
}

/** `/courses/edit?id=`. */
export function CourseEditPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const course = useQuery({ ...courseQuery(id), enabled: Boolean(id) });
  usePageTitle(t("courses:form.editTitle"));
  if (!id || (course.error instanceof ApiError && course.error.status === 404)) return <NotFoundPage />;
  if (!course.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  return <CourseForm course={course.data} key={course.data.id} />;
}

function CourseForm({ course }: { course?: CourseItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const _queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [coverUrl, setCoverUrl] = useState<string | null>(course?.cover_url ?? null);
  const cover = Form.useWatch("cover", form);
  const tabs = useLocaleTab();

  const save = useSaveCourse(course, {
    onSuccess: (saved) => {
      message.success(course ? t("courses:form.updated") : t("courses:form.created"));
      if (!course) navigate(to(pagePath("lessons", { id: saved.id })));
    },
    onError: (error) => {
      applyFieldErrors(form, error);
      message.error(errorText(error));
    },
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Typography.Title level={1} className="page-title">
        {course ? t("courses:form.editTitle") : t("courses:form.createTitle")}
      </Typography.Title>
      <Card>
        <Form<FormValues>
          form={form}
          layout="vertical"
          initialValues={course ? { ...EMPTY, ...pick(course) } : EMPTY}
          onFinish={(values) => save.mutate({ ...values, cover: values.cover ?? null })}
          onFinishFailed={tabs.showFirstError}
          data-testid="course-form"
        >
          <Row gutter={24}>
            <Col xs={24}>
              <LocaleTabs
                tabs={tabs}
                texts={[
                  titleText("courses:form.title"),
                  longText("description", "courses:form.description", 10_000),
                ]}
              />
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="target_language"
                label={t("courses:form.targetLanguage")}
                rules={[{ required: true }]}
              >
                <Select
                  showSearch={{ optionFilterProp: "label" }}
                  options={TARGET_LANGUAGES.map((l) => ({ value: l, label: languageName(l, lang) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="level" label={t("courses:form.level")} rules={[{ required: true }]}>
                <Select
                  options={CEFR_LEVELS.map((l) => ({
                    value: l,
                    label: t("courses:levelValue", { level: l }),
                  }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label={t("courses:form.cover")} extra={t("courses:form.coverHint")}>
            <Space align="start" wrap>
              {cover && coverUrl && <img src={coverUrl} alt="" className="course-form__cover" />}
              <UploadField
                type="image"
                accept="image/png,image/jpeg,image/webp"
                testId="course-cover-upload"
                onUploaded={(result) => {
                  form.setFieldValue("cover", result.file_path);
                  setCoverUrl(`/api/v1/media/${result.file_path}`);
                }}
              />
              {cover && (
                <Button
                  onClick={() => {
                    form.setFieldValue("cover", null);
                    setCoverUrl(null);
                  }}
                >
                  {t("courses:form.removeCover")}
                </Button>
              )}
            </Space>
          </Form.Item>
          <Form.Item name="cover" hidden>
            <Input />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="drip_mode"
                label={t("courses:form.dripMode")}
                extra={t("courses:form.dripHint")}
              >
                <Select
                  data-testid="course-drip-mode"
                  options={DRIP_MODES.map((m) => ({ value: m, label: t(`courses:form.drip.${m}`) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item noStyle dependencies={["drip_mode"]}>
                {({ getFieldValue }) =>
                  getFieldValue("drip_mode") === "days" && (
                    <Form.Item
                      name="drip_days"
                      label={t("courses:form.dripDays")}
                      rules={[
                        {
                          required: true,
                          type: "integer",
                          min: 1,
                          max: 365,
                          message: t("courses:form.dripDaysRange"),
                        },
                      ]}
                    >
                      <InputNumber min={1} max={365} precision={0} data-testid="course-drip-days" />
                    </Form.Item>
                  )
                }
              </Form.Item>
            </Col>
          </Row>
          <Space size="large" wrap className="course-form__flags">
            <Form.Item
              name="active"
              label={t("courses:form.published")}
              extra={t("courses:form.publishedHelp")}
              valuePropName="checked"
            >
              <Switch data-testid="course-active" />
            </Form.Item>
            <Form.Item name="popular" label={t("courses:form.popular")} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
          <Space wrap className="course-form__actions">
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="course-submit">
              {course ? t("common:actions.save") : t("courses:form.create")}
            </Button>
            <ButtonLink to={course ? to(pagePath("course", { id: course.id })) : to(pagePath("courses"))}>
              {t("common:actions.cancel")}
            </ButtonLink>
            {course && (
              <ButtonLink to={to(pagePath("lessons", { id: course.id }))}>
                {t("courses:staff.lessons")}
              </ButtonLink>
            )}
          </Space>
        </Form>
      </Card>
    </Space>
  );
}

function pick(course: CourseItem): FormValues {
  return {
    title_fr: course.title_fr,
    title_en: course.title_en,
    description_fr: course.description_fr,
    description_en: course.description_en,
    title_es: course.title_es,
    description_es: course.description_es,
    target_language: course.target_language as FormValues["target_language"],
    level: course.level,
    cover: course.cover,
    active: course.active,
    popular: course.popular,
    drip_mode: course.drip_mode,
    drip_days: course.drip_days,
  };
}
