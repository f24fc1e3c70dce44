import { useQuery } from "@tanstack/react-query";
import { Alert, Checkbox, Form, Input, Skeleton, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form-footer";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { useSession } from "@/lib/session";
import { permissionsQuery, useCreateRole } from "../api/roles-api";
import {
  grantorOf,
  isValidRoleTitle,
  mayGrantPermission,
  normalizeRoleTitle,
  permissionKey,
} from "../lib/users-helpers";

interface FormValues {
  title: string;
  description: string;
  permissions: string[];
}

/** New role: a title (A-Z, 0-9, `_`, `-`), a description and the permissions it grants. */
export function RoleForm({ onSaved, onCancel }: { onSaved: (title: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const permissions = useQuery(permissionsQuery);
  const grantor = grantorOf(useSession().user);
  const create = useCreateRole();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (values: FormValues) => {
    setFailure(null);
    const description = values.description?.trim();
    create.mutate(
      {
        title: normalizeRoleTitle(values.title),
        permissions: values.permissions ?? [],
        ...(description ? { description } : {}),
      },
      {
        onSuccess: (role) => onSaved(role.title),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) {
            form.setFields([{ name: "title", errors: [t("users:roles.errors.titleTaken")] }]);
            return;
          }
          if (applyFieldErrors(form, error, ["title", "description", "permissions"])) return;
          setFailure(errorText(error));
        },
      },
    );
  };

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      name="role-form"
      data-testid="role-form"
      requiredMark="optional"
      initialValues={{ title: "", description: "", permissions: [] }}
      onFinish={submit}
    >
      <Form.Item
        name="title"
        label={t("users:roles.fields.title")}
        extra={t("users:roles.fields.titleHint")}
        normalize={(value: string) => value.toUpperCase()}
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              if (!value?.trim()) throw new Error(t("users:errors.required"));
              if (!isValidRoleTitle(value)) throw new Error(t("users:roles.errors.titleFormat"));
            },
          },
        ]}
      >
        <Input maxLength={40} autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Form.Item name="description" label={t("users:roles.fields.description")}>
        <Input.TextArea rows={2} maxLength={200} showCount />
      </Form.Item>
      <Form.Item
        name="permissions"
        label={t("users:roles.fields.permissions")}
        extra={t("users:roles.fields.permissionsHint")}
      >
        {permissions.isPending ? (
          <Skeleton active paragraph={{ rows: 6 }} title={false} />
        ) : permissions.isError ? (
          <Alert type="warning" showIcon title={errorText(permissions.error)} />
        ) : (
          <Checkbox.Group style={{ display: "flex", flexDirection: "column", gap: 8 }}>
            {permissions.data.map((permission) => (
              <Checkbox
                key={permission.slug}
                value={permission.slug}
                disabled={!mayGrantPermission(grantor, permission.slug)}
                data-testid="role-permission"
              >
                <Typography.Text code>{permission.slug}</Typography.Text>{" "}
                <Typography.Text type="secondary">
                  {t(`users:permissions.${permissionKey(permission.slug)}`, {
                    defaultValue: permission.description,
                  })}
                </Typography.Text>
              </Checkbox>
            ))}
          </Checkbox.Group>
        )}
      </Form.Item>
      <FormFooter
        error={failure}
        pending={create.isPending}
        testId="role-form"
        ids={{ submit: "role-save" }}
        submitLabel={t("users:roles.createSubmit")}
        onCancel={onCancel}
      />
    </Form>
  );
}
