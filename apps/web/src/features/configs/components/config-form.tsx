import { CONFIG_KEY_PATTERN, type ConfigBody, type ConfigItem } from "@parlons/contract";
import { Button, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { EditorFormProps } from "@/components/admin-list-page";
import { FormFooter } from "@/components/form-footer";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { type SaveInput, useSaveConfig } from "../api/configs-api";
import { formatConfigValue, parseConfigValue } from "../lib/config-json";

interface ConfigFormValues {
  key: string;
  value: string;
  description: string;
}

/** Create or edit a configuration value; the value is typed as JSON and checked as you type. */
export function ConfigForm({ config, onSaved, onCancel }: EditorFormProps<ConfigItem, "config">) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConfigFormValues>();
  const save = useSaveConfig();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (values: ConfigFormValues) => {
    setFailure(null);
    const parsed = parseConfigValue(values.value);
    if (!parsed.ok) return;
    const description = values.description.trim();
    // JSON.parse gives a JSON value: the contract's type for "any JSON but undefined"
    const value = parsed.value as ConfigBody["value"];
    const input: SaveInput = config
      ? { create: false, key: config.key, body: { value, description } }
      : { create: true, body: { key: values.key.trim(), value, description } };
    save.mutate(input, {
      onSuccess: onSaved,
      onError: (error) => {
        applyFieldErrors(form, error, ["key", "value", "description"]);
        setFailure(
          error instanceof ApiError && error.status === 409
            ? t("events:configs.form.taken")
            : error instanceof ApiError && error.status === 422
              ? t("events:configs.form.failed")
              : errorText(error),
        );
      },
    });
  };

  return (
    <Form<ConfigFormValues>
      form={form}
      layout="vertical"
      name="config-form"
      data-testid="config-form"
      initialValues={
        config
          ? { key: config.key, value: formatConfigValue(config.value), description: config.description }
          : { key: "", value: "", description: "" }
      }
      onFinish={submit}
      requiredMark="optional"
    >
      <Form.Item
        name="key"
        label={t("events:configs.form.key")}
        extra={config ? undefined : t("events:configs.form.keyHint")}
        rules={[
          { required: true, message: t("events:configs.form.required") },
          { pattern: CONFIG_KEY_PATTERN, message: t("events:configs.form.keyInvalid") },
        ]}
      >
        <Input maxLength={64} disabled={config !== null} autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Form.Item
        name="value"
        label={t("events:configs.form.value")}
        extra={t("events:configs.form.valueHint")}
        rules={[
          { required: true, whitespace: true, message: t("events:configs.form.required") },
          {
            validator: (_, text: string) => {
              if (!text?.trim()) return Promise.resolve();
              const parsed = parseConfigValue(text);
              if (parsed.ok) return Promise.resolve();
              return Promise.reject(
                new Error(
                  parsed.error === "tooLarge"
                    ? t("events:configs.form.valueTooLarge")
                    : t("events:configs.form.valueInvalid"),
                ),
              );
            },
          },
        ]}
      >
        <Input.TextArea rows={10} spellCheck={false} className="config-json" data-testid="config-value" />
      </Form.Item>
      <Button
        size="small"
        style={{ marginTop: -12, marginBottom: 16 }}
        onClick={() => {
          const parsed = parseConfigValue(form.getFieldValue("value") ?? "");
          if (parsed.ok) form.setFieldValue("value", formatConfigValue(parsed.value));
          else void form.validateFields(["value"]);
        }}
      >
        {t("events:configs.form.format")}
      </Button>
      <Form.Item name="description" label={t("events:configs.form.description")}>
        <Input maxLength={500} />
      </Form.Item>
      <FormFooter error={failure} pending={save.isPending} onCancel={onCancel} testId="config-form" />
    </Form>
  );
}
