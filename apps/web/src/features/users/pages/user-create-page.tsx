import { BUILT_IN_ROLES, PERMISSIONS, ROLE_CUSTOMER, type Speak } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Card, Col, Form, Input, Radio, Row, Select, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors, emailRules, passwordRules } from "@/lib/form-rules";
import { speakOptions, toSpeak } from "@/lib/languages";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { rolesQuery } from "../api/roles-api";
import { type NewUserBody, useAddUser } from "../api/users-api";
import { grantorOf, roleChoices, withinCeiling } from "../lib/users-helpers";

interface FormValues {
  email: string;
  password: string;
  full_name: string;
  role: string;
  speak: Speak;
}

const FIELDS = ["email", "password", "full_name", "role", "speak"];

/** `/User/create` (users.manage): a staff member creates an account, active at once (`POST /v1/users/add`). */
export function UserCreatePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { user: me } = useSession();
  usePageTitle(t("users:create.title"));
  const [form] = Form.useForm<FormValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const roles = useQuery({ ...rolesQuery, enabled: hasPermission(me, PERMISSIONS.rolesManage) });
  const add = useAddUser();

  const submit = (values: FormValues) => {
    setFailure(null);
    const body: NewUserBody = {
      email: values.email.trim(),
      password: values.password,
      role: values.role,
      speak: values.speak,
      ...(values.full_name?.trim() ? { full_name: values.full_name.trim() } : {}),
    };
    add.mutate(body, {
      onSuccess: (user) => {
        void message.success(t("users:create.created", { email: user.email }));
        navigate(`${to(pagePath("users"))}?q=${encodeURIComponent(user.email)}`);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) {
          form.setFields([{ name: "email", errors: [t("users:errors.emailTaken")] }]);
          return;
        }
        if (applyFieldErrors(form, error, FIELDS)) return;
        setFailure(errorText(error));
      },
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%", maxWidth: 760 }}>
      <div>
        <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
          {t("users:create.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("users:create.subtitle")}</Typography.Text>
      </div>
      <Card>
        <Form<FormValues>
          form={form}
          layout="vertical"
          name="user-create"
          data-testid="user-form"
          requiredMark="optional"
          initialValues={{ role: ROLE_CUSTOMER, speak: toSpeak(lang), full_name: "" }}
          onFinish={submit}
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="email"
                label={t("users:fields.email")}
                rules={emailRules(t)}
                validateTrigger="onBlur"
              >
                <Input type="email" autoComplete="off" maxLength={254} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="password"
                label={t("users:fields.password")}
                rules={passwordRules(t)}
                extra={t("auth:password.hint")}
              >
                <Input.Password autoComplete="new-password" maxLength={256} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="full_name" label={t("users:fields.fullName")}>
                <Input maxLength={120} autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="role"
                label={t("users:fields.role")}
                rules={[{ required: true, message: t("users:errors.required") }]}
              >
                <Select
                  loading={roles.isFetching}
                  options={roleChoices(
                    roles.data?.map((r) => r.title),
                    BUILT_IN_ROLES,
                    undefined,
                    (title) => withinCeiling(grantorOf(me), title, roles.data),
                  ).map((title) => ({ value: title, label: title }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="speak" label={t("users:fields.speak")}>
                <Radio.Group options={speakOptions()} />
              </Form.Item>
            </Col>
          </Row>
          {failure && (
            <Alert
              type="error"
              showIcon
              title={failure}
              style={{ marginBottom: 16 }}
              data-testid="user-form-error"
            />
          )}
          <Space>
            <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="user-save">
              {t("users:create.submit")}
            </Button>
            <ButtonLink to={to(pagePath("users"))}>{t("common:actions.cancel")}</ButtonLink>
          </Space>
        </Form>
      </Card>
    </Space>
  );
}
