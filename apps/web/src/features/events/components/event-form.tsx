import { type EventItem, MAX_EVENT_CAPACITY } from "@parlons/contract";
import { Col, DatePicker, Form, Input, InputNumber, Radio, Row } from "antd";
import { useTranslation } from "react-i18next";
import type { EditorFormProps } from "@/components/admin-list-page";
import { FormFooter } from "@/components/form-footer";
import { LocaleTabs, longText, titleText, useLocaleTab } from "@/components/locale-tabs";
import { SwitchItem } from "@/components/switch-item";
import { useEditorSave } from "@/components/use-editor-save";
import { ApiError, errorText } from "@/lib/api-error";
import { useSaveEvent } from "../api/manage-events-api";
import { EMPTY_EVENT, type EventFormValues, toEventBody, toFormValues } from "../lib/event-form-values";

const DATE_FORMAT = "YYYY-MM-DD HH:mm";

/** Create or edit an event: its texts in every locale (one tab each), kind, place or link, start and end, places, active. */
export function EventForm({ event, onSaved, onCancel }: EditorFormProps<EventItem, "event">) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EventFormValues>();
  const kind = Form.useWatch("kind", form);
  const required = { required: true, message: t("events:form.required") };
  const tabs = useLocaleTab();
  const { failure, submit, pending } = useEditorSave({
    form,
    fieldNames: Object.keys(EMPTY_EVENT),
    save: useSaveEvent(),
    onSaved,
    textOf: (error) =>
      error instanceof ApiError && error.status === 422 ? t("events:form.failed") : errorText(error),
  });

  return (
    <Form<EventFormValues>
      form={form}
      layout="vertical"
      name="event-form"
      data-testid="event-form"
      initialValues={event ? toFormValues(event) : EMPTY_EVENT}
      onFinish={(values) => submit({ id: event?.id ?? null, body: toEventBody(values) })}
      onFinishFailed={tabs.showFirstError}
      requiredMark="optional"
    >
      <Row gutter={12}>
        <Col xs={24}>
          <LocaleTabs
            tabs={tabs}
            texts={[
              titleText("events:form.title"),
              longText("description", "events:form.description", 10_000),
            ]}
          />
        </Col>
        <Col xs={24}>
          <Form.Item name="kind" label={t("events:form.kind")} rules={[required]}>
            <Radio.Group
              optionType="button"
              options={(["online", "in_person"] as const).map((k) => ({
                value: k,
                label: t(`events:kind.${k}`),
              }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="location"
            label={t("events:form.location")}
            extra={t("events:form.locationHint")}
            rules={kind === "in_person" ? [{ ...required, whitespace: true }] : []}
          >
            <Input maxLength={500} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="online_url"
            label={t("events:form.onlineUrl")}
            extra={t("events:form.onlineUrlHint")}
            rules={[{ type: "url", message: t("events:form.invalidUrl") }]}
          >
            <Input maxLength={2048} inputMode="url" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="starts_at" label={t("events:form.startsAt")} rules={[required]}>
            <DatePicker showTime={{ format: "HH:mm" }} format={DATE_FORMAT} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="ends_at"
            label={t("events:form.endsAt")}
            dependencies={["starts_at"]}
            rules={[
              required,
              ({ getFieldValue }) => ({
                validator: (_, value: EventFormValues["ends_at"]) => {
                  const start: EventFormValues["starts_at"] = getFieldValue("starts_at");
                  return value && start && !value.isAfter(start)
                    ? Promise.reject(new Error(t("events:form.endAfterStart")))
                    : Promise.resolve();
                },
              }),
            ]}
          >
            <DatePicker showTime={{ format: "HH:mm" }} format={DATE_FORMAT} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item name="capacity" label={t("events:form.capacity")} rules={[required]}>
            <InputNumber min={1} max={MAX_EVENT_CAPACITY} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <SwitchItem name="active" label={t("events:form.active")} />
        </Col>
        <Col xs={24}>
          <SwitchItem
            name="premium_only"
            label={t("events:form.premiumOnly")}
            extra={t("events:form.premiumOnlyHint")}
            testId="event-premium-only"
          />
        </Col>
      </Row>
      <FormFooter error={failure} pending={pending} onCancel={onCancel} testId="event-form" />
    </Form>
  );
}
