import { Button, Form, Input } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "@/lib/api-error";

export interface CodeFormProps {
  /** "totp": six digits of the app; "recovery": a recovery code; "any": either. */
  kind: "totp" | "recovery" | "any";
  submitLabel: string;
  /** Resolves when the code was right; throws the API's error otherwise. */
  onSubmit: (code: string) => Promise<void>;
  /** Errors other than a wrong code (expired step, lock…): the caller says what happens. */
  onError: (error: unknown) => void;
  name: string;
  extra?: ReactNode;
}

/** One code field and its button: a wrong code is said on the field, in the reader's language. */
export function CodeForm({ kind, submitLabel, onSubmit, onError, name, extra }: CodeFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  const [pending, setPending] = useState(false);
  const label = t(`auth:twoFactor.codeLabel.${kind}`);

  const submit = async ({ code }: { code: string }) => {
    setPending(true);
    try {
      await onSubmit(code.trim());
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === "SECOND_FACTOR_INVALID" || error.code === "VALIDATION_FAILED")
      ) {
        form.setFields([{ name: "code", errors: [t("auth:twoFactor.wrongCode")] }]);
      } else {
        onError(error);
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <Form form={form} name={name} layout="vertical" requiredMark={false} onFinish={submit}>
      <Form.Item
        label={label}
        name="code"
        extra={extra}
        rules={[{ required: true, whitespace: true, message: t("auth:twoFactor.codeRequired") }]}
      >
        <Input
          autoComplete="one-time-code"
          inputMode={kind === "totp" ? "numeric" : "text"}
          maxLength={kind === "totp" ? 7 : 40}
          autoFocus
          data-testid={`${name}-code`}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={pending} data-testid={`${name}-submit`}>
        {submitLabel}
      </Button>
    </Form>
  );
}
