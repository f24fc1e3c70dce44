import { BUILT_IN_ROLES, PERMISSIONS, ROLE_CUSTOMER, type Speak } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Col, Form, Input, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors, emailRules, passwordRules } from "@/lib/form-rules";
import { toSpeak } from "@/lib/languages";
import { hasPermission, useSession } from "@/lib/session";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { rolesQuery } from "../api/roles-api";
import { type NewUserBody, useAddUser } from "../api/users-api";
import { SpeakField, UserForm, UserFormShell, useSavedToList } from "../components/user-form-shell";
import { grantorOf, roleOptions, withinCeiling } from "../lib/users-helpers";

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
  const savedToList = useSavedToList();
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
        savedToList(t("users:create.created", { email: user.email }), user.email);
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
    <UserFormShell title={t("users:create.title")} subtitle={t("users:create.subtitle")}>
      <UserForm<FormValues>
        form={form}
        name="user-create"
        initialValues={{ role: ROLE_CUSTOMER, speak: toSpeak(lang), full_name: "" }}
        onFinish={submit}
        error={failure}
        pending={add.isPending}
        submitLabel={t("users:create.submit")}
      >
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
              options={roleOptions(
                t,
                roles.data?.map((r) => r.title),
                BUILT_IN_ROLES,
                undefined,
                (title) => withinCeiling(grantorOf(me), title, roles.data),
              )}
            />
          </Form.Item>
        </Col>
        <SpeakField />
      </UserForm>
    </UserFormShell>
  );
}
