import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { isUrl, type LessonBody, type LessonItem, type LessonLink } from "@parlons/contract";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Form, Input, Space, Switch, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LocaleTabs, longText, titleText, useLocaleTab } from "@/components/locale-tabs";
import { UploadField } from "@/components/upload-field";
import { courseKeys } from "@/features/courses/api/course-queries";
import { formatClock } from "@/features/player/lib/time";
import { errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { parseUploadValue, uploadValue } from "@/lib/upload";
import { updateLessonLinks, useSaveLesson } from "../api/lessons-api";
import { AlignPanel } from "./align-panel";
import { CueEditor } from "./cue-editor";

type FormValues = Omit<LessonBody, "position">;

const EMPTY: FormValues = {
  title_fr: "",
  title_en: "",
  text_fr: "",
  text_en: "",
  title_es: "",
  text_es: "",
  audio: null,
  transcript: "",
  links: [],
  free: false,
  // a new lesson is a draft: learners see it once staff publish it
  active: false,
};

/** Staff lesson form: bilingual title and text, MP3 upload, transcript, links, free and active flags. */
export function LessonForm({
  courseId,
  lesson,
  onSaved,
}: {
  courseId: string;
  lesson?: LessonItem;
  onSaved: (lesson: LessonItem) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const _queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const audio = Form.useWatch("audio", form) as string | null | undefined;
  const duration = parseUploadValue(audio).duration;
  const hasLines = Boolean(lesson && lesson.cues.length > 0);
  const tabs = useLocaleTab();

  const save = useSaveLesson(courseId, {
    onSuccess: (saved) => {
      message.success(lesson ? t("courses:lessonForm.updated") : t("courses:lessonForm.created"));
      onSaved(saved);
    },
    onError: (error) => {
      applyFieldErrors(form, error);
      message.error(errorText(error));
    },
  });

  const submit = (values: FormValues) => {
    if (!lesson) return save.mutate({ id: null, body: values });
    const { links: _links, transcript, ...rest } = values;
    // a lesson with lines edits them in the lines editor; its transcript field is not shown
    save.mutate({ id: lesson.id, body: hasLines ? rest : { ...rest, transcript } });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Form<FormValues>
        form={form}
        layout="vertical"
        data-testid="lesson-form"
        initialValues={lesson ? fromLesson(lesson) : EMPTY}
        onFinish={(values) => submit({ ...values, audio: values.audio || null, links: values.links ?? [] })}
        onFinishFailed={tabs.showFirstError}
      >
        <LocaleTabs
          tabs={tabs}
          texts={[titleText("courses:form.title"), longText("text", "courses:lessonForm.text")]}
        />
        <Form.Item label={t("courses:lessonForm.audio")} extra={t("courses:lessonForm.audioHint")}>
          <UploadField
            type="audio"
            testId="lesson-upload"
            onUploaded={(result) => form.setFieldValue("audio", uploadValue(result))}
          />
          {audio && (
            <Typography.Paragraph className="lesson-form__audio">
              {t("courses:lessonForm.audioReady")}{" "}
              {duration !== null && (
                <strong data-testid="lesson-duration">
                  {t("courses:lessonForm.duration", { duration: formatClock(duration) })}
                </strong>
              )}
            </Typography.Paragraph>
          )}
        </Form.Item>
        <Form.Item name="audio" hidden>
          <Input />
        </Form.Item>
        {!hasLines && (
          <Form.Item
            name="transcript"
            label={t("courses:lessonForm.transcript")}
            extra={t("courses:lessonForm.transcriptHint")}
          >
            <Input.TextArea rows={6} className="mono" />
          </Form.Item>
        )}
        {!lesson && <LinksFields />}
        <Space size="large" wrap>
          <Form.Item name="free" label={t("courses:lessonForm.free")} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item
            name="active"
            label={t("courses:lessonForm.published")}
            extra={t("courses:lessonForm.publishedHelp")}
            valuePropName="checked"
          >
            <Switch data-testid="lesson-active" />
          </Form.Item>
        </Space>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="lesson-submit">
            {lesson ? t("common:actions.save") : t("courses:lessonForm.create")}
          </Button>
        </Form.Item>
      </Form>
      {lesson && <AlignPanel courseId={courseId} lesson={lesson} />}
      {/* new lines from the server (an alignment, a save) start the editor afresh */}
      {lesson && <CueEditor key={linesSignature(lesson)} courseId={courseId} lesson={lesson} />}
      {lesson && <LinksForm courseId={courseId} lesson={lesson} />}
    </Space>
  );
}

const linesSignature = (lesson: LessonItem) =>
  lesson.cues.map((c) => `${c.id}@${c.start}-${c.end}`).join(",");

function fromLesson(lesson: LessonItem): FormValues {
  return {
    title_fr: lesson.title_fr,
    title_en: lesson.title_en,
    text_fr: lesson.text_fr,
    text_en: lesson.text_en,
    title_es: lesson.title_es,
    text_es: lesson.text_es,
    audio: lesson.audio_path ?? null,
    transcript: lesson.transcript ?? "",
    links: lesson.links,
    free: lesson.free,
    active: lesson.active,
  };
}

/** Label + URL rows (URL checked with the contract's `isUrl`, the spec's helper). */
function LinksFields() {
  const { t } = useTranslation();
  return (
    <Form.List name="links">
      {(fields, { add, remove }) => (
        <fieldset className="links-fields">
          <legend>{t("courses:links.title")}</legend>
          {fields.map((field, index) => (
            <Space key={field.key} align="baseline" wrap className="links-fields__row">
              <Form.Item
                name={[field.name, "label"]}
                label={t("courses:links.label")}
                rules={[{ required: true, whitespace: true, message: t("courses:links.labelRequired") }]}
              >
                <Input maxLength={200} />
              </Form.Item>
              <Form.Item
                name={[field.name, "url"]}
                label={t("courses:links.url")}
                rules={[
                  { required: true, message: t("courses:links.urlInvalid") },
                  {
                    validator: (_, value: string) =>
                      !value || isUrl(value.trim())
                        ? Promise.resolve()
                        : Promise.reject(new Error(t("courses:links.urlInvalid"))),
                  },
                ]}
              >
                <Input inputMode="url" maxLength={2048} style={{ width: 280 }} />
              </Form.Item>
              <Button
                icon={<DeleteOutlined />}
                onClick={() => remove(field.name)}
                aria-label={t("courses:links.remove", { n: index + 1 })}
              />
            </Space>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => add({ label: "", url: "" })} data-testid="link-add">
            {t("courses:links.add")}
          </Button>
        </fieldset>
      )}
    </Form.List>
  );
}

/** The spec's links form of an existing lesson (`PUT update-links`). */
function LinksForm({ courseId, lesson }: { courseId: string; lesson: LessonItem }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ links: LessonLink[] }>();
  const [saving, setSaving] = useState(false);
  return (
    <Card size="small" title={t("courses:links.title")}>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ links: lesson.links }}
        data-testid="links-form"
        onFinish={async (values) => {
          setSaving(true);
          try {
            await updateLessonLinks(
              courseId,
              lesson.id,
              (values.links ?? []).map((l) => ({ label: l.label.trim(), url: l.url.trim() })),
            );
            message.success(t("courses:links.saved"));
            void queryClient.invalidateQueries({ queryKey: courseKeys.lessons(courseId) });
          } catch (error) {
            message.error(errorText(error));
          } finally {
            setSaving(false);
          }
        }}
      >
        <LinksFields />
        <Button type="primary" htmlType="submit" loading={saving} style={{ marginTop: 16 }}>
          {t("courses:links.save")}
        </Button>
      </Form>
    </Card>
  );
}
