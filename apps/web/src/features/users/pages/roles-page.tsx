import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { BUILT_IN_ROLES, type Role } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Card, Flex, Result, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { EditorDrawer } from "@/components/editor-drawer";
import { ApiError, errorText } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { WIDE_ONLY } from "@/lib/table";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { rolesQuery, useDeleteRole } from "../api/roles-api";
import { RoleForm } from "../components/role-form";
import { grantorOf, permissionKey, roleDescription, withinCeiling } from "../lib/users-helpers";

type Problem = { kind: "builtIn" | "inUse" | "other"; role: Role; text: string };

function isBuiltIn(role: Role): boolean {
  return role.builtIn || (BUILT_IN_ROLES as readonly string[]).includes(role.title);
}

/** `/User/roles` (roles.manage): roles with their permissions; create and delete. */
export function RolesPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { modal, message } = App.useApp();
  usePageTitle(t("users:roles.title"));
  const roles = useQuery(rolesQuery);
  const remove = useDeleteRole();
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const grantor = grantorOf(useSession().user);

  const explain = (role: Role, error: unknown): Problem => {
    if (error instanceof ApiError && error.code === "ROLE_BUILT_IN")
      return { kind: "builtIn", role, text: t("users:roles.errors.builtIn", { title: role.title }) };
    if (error instanceof ApiError && error.code === "ROLE_IN_USE")
      return { kind: "inUse", role, text: t("users:roles.errors.inUse", { title: role.title }) };
    return { kind: "other", role, text: errorText(error) };
  };

  const confirmDelete = (role: Role) => {
    setProblem(null);
    modal.confirm({
      title: t("users:roles.deleteTitle", { title: role.title }),
      content: t("users:roles.deleteText"),
      okText: t("users:roles.deleteOk"),
      okButtonProps: { danger: true },
      cancelText: t("common:actions.cancel"),
      onOk: () =>
        remove
          .mutateAsync(role.id)
          .then(() => void message.success(t("users:roles.deleted", { title: role.title })))
          .catch((error: unknown) => setProblem(explain(role, error))),
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
            {t("users:roles.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("users:roles.subtitle")}</Typography.Text>
        </div>
        <Space wrap>
          <ButtonLink to={to(pagePath("users"))}>{t("users:list.allUsers")}</ButtonLink>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="role-create"
          >
            {t("users:roles.create")}
          </Button>
        </Space>
      </Flex>
      {problem && (
        <Alert
          type="error"
          showIcon
          role="alert"
          closable={{ "aria-label": t("common:actions.close") }}
          onClose={() => setProblem(null)}
          title={problem.text}
          description={
            problem.kind === "inUse" ? (
              <ButtonLink
                type="link"
                style={{ padding: 0 }}
                to={`${to(pagePath("users"))}?role=${encodeURIComponent(problem.role.title)}`}
              >
                {t("users:roles.seeHolders", { title: problem.role.title })}
              </ButtonLink>
            ) : undefined
          }
          data-testid="roles-error"
        />
      )}
      <Card>
        {roles.isError ? (
          <Result
            status="warning"
            title={t("users:roles.loadError")}
            subTitle={errorText(roles.error)}
            extra={<Button onClick={() => void roles.refetch()}>{t("users:actions.retry")}</Button>}
          />
        ) : (
          <Table<Role>
            rowKey="id"
            data-testid="roles-table"
            loading={roles.isFetching}
            dataSource={roles.data ?? []}
            pagination={false}
            scroll={{ x: true }}
            locale={{ emptyText: roles.isPending ? <span /> : t("users:roles.empty") }}
            columns={[
              {
                key: "title",
                title: t("users:roles.columns.title"),
                render: (_: unknown, role) => (
                  <Space size={4} wrap>
                    <strong>{role.title}</strong>
                    {isBuiltIn(role) && (
                      <Tag color="blue" data-testid="role-built-in">
                        {t("users:roles.builtIn")}
                      </Tag>
                    )}
                  </Space>
                ),
              },
              {
                key: "description",
                responsive: WIDE_ONLY,
                title: t("users:roles.columns.description"),
                render: (_: unknown, role) => roleDescription(t, role) || "—",
              },
              {
                key: "permissions",
                title: t("users:roles.columns.permissions"),
                render: (_: unknown, role) =>
                  role.permissions.length === 0 ? (
                    <Typography.Text type="secondary">{t("users:roles.noPermission")}</Typography.Text>
                  ) : (
                    <Flex wrap gap={4}>
                      {role.permissions.map((p) => (
                        <Tag
                          key={p.slug}
                          title={t(`users:permissions.${permissionKey(p.slug)}`, { defaultValue: p.slug })}
                        >
                          {p.slug}
                        </Tag>
                      ))}
                    </Flex>
                  ),
              },
              {
                key: "actions",
                title: t("users:roles.columns.actions"),
                render: (_: unknown, role) => {
                  const builtIn = isBuiltIn(role);
                  // a role with permissions the staff member lacks: the API refuses its deletion
                  const aboveYou = !withinCeiling(grantor, role.title, [role]);
                  const locked = builtIn || aboveYou;
                  const reasonId = `role-${role.id}-locked`;
                  return (
                    <Space orientation="vertical" size={2}>
                      <Button
                        danger
                        size="small"
                        icon={<DeleteOutlined />}
                        disabled={locked}
                        onClick={() => confirmDelete(role)}
                        data-testid="role-delete"
                        aria-label={t("users:roles.delete", { title: role.title })}
                        aria-describedby={locked ? reasonId : undefined}
                      >
                        {t("users:roles.deleteShort")}
                      </Button>
                      {locked && (
                        <Typography.Text type="secondary" id={reasonId} style={{ fontSize: 12 }}>
                          {t(builtIn ? "users:roles.builtInLocked" : "users:roles.aboveYou")}
                        </Typography.Text>
                      )}
                    </Space>
                  );
                },
              },
            ]}
          />
        )}
      </Card>
      <EditorDrawer
        title={t("users:roles.create")}
        open={creating}
        onClose={() => setCreating(false)}
        size={560}
      >
        {creating && (
          <RoleForm
            onCancel={() => setCreating(false)}
            onSaved={(title) => {
              void message.success(t("users:roles.created", { title }));
              setCreating(false);
            }}
          />
        )}
      </EditorDrawer>
    </Space>
  );
}
