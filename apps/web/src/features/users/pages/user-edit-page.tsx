import { BUILT_IN_ROLES, PERMISSIONS, type UserListItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Col, Descriptions, Form, Input, Result, Select, Skeleton, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { formatDateTime, planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { rolesQuery } from "../api/roles-api";
import { plansQuery, userQuery, useUpdateUser } from "../api/users-api";
import { SpeakField, UserForm, UserFormShell, useSavedToList } from "../components/user-form-shell";
import {
  grantorOf,
  roleOptions,
  USER_STATUSES,
  type UserEditValues,
  updateBody,
  withinCeiling,
} from "../lib/users-helpers";

const FIELDS = ["full_name", "gender", "speak", "role", "status", "plan_id"];

/** `/User/edit/{id}` (users.manage); without an id, back to the list. */
export function UserEditPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { id = "" } = useParams();
  usePageTitle(t("users:edit.title"));
  const user = useQuery({ ...userQuery(id), enabled: Boolean(id) });

  if (!id) return <Navigate to={to(pagePath("users"))} replace />;
  if (user.isError) {
    const missing =
      user.error instanceof ApiError && (user.error.status === 404 || user.error.status === 400);
    return (
      <Result
        status={missing ? "404" : "warning"}
        title={
          <h1 className="result-title">{missing ? t("users:edit.notFound") : t("users:edit.loadError")}</h1>
        }
        subTitle={missing ? undefined : errorText(user.error)}
        extra={
          <Space>
            {!missing && <Button onClick={() => void user.refetch()}>{t("users:actions.retry")}</Button>}
            <ButtonLink to={to(pagePath("users"))} type="primary">
              {t("users:edit.backToList")}
            </ButtonLink>
          </Space>
        }
        data-testid="user-not-found"
      />
    );
  }
  if (!user.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  return <UserEditForm key={user.data.id} user={user.data} />;
}

function valuesOf(user: UserListItem): UserEditValues {
  return {
    full_name: user.full_name,
    gender: user.gender,
    speak: user.speak,
    role: user.role,
    status: user.status,
    plan_id: user.plan_id,
  };
}

function UserEditForm({ user }: { user: UserListItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  const savedToList = useSavedToList();
  const { message } = App.useApp();
  const { user: me } = useSession();
  const self = me?.id === user.id;
  const canEditPlan = hasPermission(me, PERMISSIONS.plansManage);
  const roles = useQuery({ ...rolesQuery, enabled: hasPermission(me, PERMISSIONS.rolesManage) });
  const plans = useQuery({ ...plansQuery("all"), enabled: canEditPlan });
  const update = useUpdateUser(user.id);
  const [form] = Form.useForm<UserEditValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const initial = valuesOf(user);
  const grantor = grantorOf(me);
  const grantable = (title: string) => withinCeiling(grantor, title, roles.data);
  // an account holding rights the editor lacks: the API refuses every change to it
  const aboveYou = !self && !grantable(user.role);

  const submit = (values: UserEditValues) => {
    setFailure(null);
    const body = updateBody(
      initial,
      { ...initial, ...values, gender: values.gender ?? null },
      { self, canEditPlan },
    );
    if (Object.keys(body).length === 0) {
      void message.info(t("users:edit.nothingChanged"));
      return;
    }
    update.mutate(body, {
      onSuccess: () => {
        savedToList(t("users:edit.saved"));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === "FORBIDDEN" && self) {
          setFailure(t("users:errors.forbiddenSelf"));
          return;
        }
        if (applyFieldErrors(form, error, FIELDS)) return;
        setFailure(errorText(error));
      },
    });
  };

  const planOptions = (plans.data ?? []).map((plan) => ({
    value: plan.id,
    label: plan.active ? planName(plan, lang) : `${planName(plan, lang)} (${t("users:edit.inactivePlan")})`,
  }));

  return (
    <UserFormShell title={t("users:edit.title")} subtitle={user.full_name || user.email}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        style={{ marginBottom: 24 }}
        items={[
          { key: "email", label: t("users:fields.email"), children: user.email },
          {
            key: "created",
            label: t("users:columns.created"),
            children: formatDateTime(user.created_at, lang, "short"),
          },
          {
            key: "lastLogin",
            label: t("users:columns.lastLogin"),
            children: formatDateTime(user.last_login_at, lang, "short") ?? t("users:list.never"),
          },
        ]}
      />
      {(self || aboveYou) && (
        <Alert
          type={self ? "info" : "warning"}
          showIcon
          title={t(self ? "users:edit.selfNote" : "users:edit.aboveYou")}
          style={{ marginBottom: 16 }}
          data-testid={self ? "user-self-note" : "user-above-you"}
        />
      )}
      <UserForm<UserEditValues>
        form={form}
        disabled={aboveYou}
        name="user-edit"
        initialValues={initial}
        onFinish={submit}
        error={failure}
        pending={update.isPending}
      >
        <Col xs={24} md={12}>
          <Form.Item
            name="full_name"
            label={t("users:fields.fullName")}
            rules={[{ required: true, whitespace: true, message: t("users:errors.required") }]}
          >
            <Input maxLength={120} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="gender" label={t("users:fields.gender")}>
            <Select
              allowClear
              placeholder={t("users:gender.unset")}
              options={(["m", "f", "other"] as const).map((g) => ({
                value: g,
                label: t(`users:gender.${g}`),
              }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="role"
            label={t("users:fields.role")}
            extra={self ? t("users:edit.selfLocked") : undefined}
          >
            <Select
              disabled={self}
              loading={roles.isFetching}
              options={roleOptions(
                t,
                roles.data?.map((r) => r.title),
                BUILT_IN_ROLES,
                user.role,
                grantable,
              )}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="status"
            label={t("users:fields.status")}
            extra={self ? t("users:edit.selfLocked") : t("users:edit.statusHint")}
          >
            <Select
              disabled={self}
              options={USER_STATUSES.map((status) => ({
                value: status,
                label: t(`users:status.${status}`),
              }))}
            />
          </Form.Item>
        </Col>
        {canEditPlan && (
          <Col xs={24} md={12}>
            <Form.Item name="plan_id" label={t("users:fields.plan")}>
              <Select loading={plans.isFetching} options={planOptions} />
            </Form.Item>
          </Col>
        )}
        <SpeakField md={12} />
      </UserForm>
    </UserFormShell>
  );
}
