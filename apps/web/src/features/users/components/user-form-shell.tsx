import { App, Card, Col, Form, type FormInstance, Radio, Row, Space, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { FormFooter } from "@/components/form-footer";
import { speakOptions } from "@/lib/languages";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";

/** The frame of the create and edit pages of an account: the title, a line under it, the card. */
export function UserFormShell({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
}) {
  return (
    <Space orientation="vertical" size="large" style={{ width: "100%", maxWidth: 760 }}>
      <div>
        <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">{subtitle}</Typography.Text>
      </div>
      <Card>{children}</Card>
    </Space>
  );
}

/** The account's form: its fields two to a row, then the server's error, save and back to the list. */
export function UserForm<V extends object>(props: {
  form: FormInstance<V>;
  name: string;
  initialValues: Partial<V>;
  onFinish: (values: V) => void;
  disabled?: boolean;
  error: string | null;
  pending: boolean;
  submitLabel?: string;
  children: ReactNode;
}) {
  return (
    <Form<V>
      form={props.form}
      disabled={props.disabled}
      layout="vertical"
      name={props.name}
      data-testid="user-form"
      requiredMark="optional"
      initialValues={props.initialValues}
      onFinish={props.onFinish}
    >
      <Row gutter={16}>{props.children}</Row>
      <UserFormFooter error={props.error} pending={props.pending} submitLabel={props.submitLabel} />
    </Form>
  );
}

/** The language an account's mails and pages speak (the last field of both forms). */
export function SpeakField({ md }: { md?: number }) {
  const { t } = useTranslation();
  return (
    <Col xs={24} md={md}>
      <Form.Item name="speak" label={t("users:fields.speak")}>
        <Radio.Group options={speakOptions()} />
      </Form.Item>
    </Col>
  );
}

/** The server's error, then save and back to the list. */
function UserFormFooter(props: { error: string | null; pending: boolean; submitLabel?: string }) {
  const to = useLocalePath();
  return (
    <FormFooter
      error={props.error}
      pending={props.pending}
      testId="user-form"
      ids={{ submit: "user-save" }}
      submitLabel={props.submitLabel}
      cancelTo={to(pagePath("users"))}
    />
  );
}

/** Once saved: the confirmation, then the users' list (searched for `q` when given). */
export function useSavedToList() {
  const to = useLocalePath();
  const navigate = useNavigate();
  const { message } = App.useApp();
  return (text: string, q?: string) => {
    void message.success(text);
    navigate(q === undefined ? to(pagePath("users")) : `${to(pagePath("users"))}?q=${encodeURIComponent(q)}`);
  };
}
