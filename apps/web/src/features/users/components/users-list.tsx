import {
  CheckOutlined,
  EditOutlined,
  PlusOutlined,
  SearchOutlined,
  StopOutlined,
  UndoOutlined,
} from "@ant-design/icons";
import { BUILT_IN_ROLES, PERMISSIONS, ROLE_ADMIN, type UserListItem } from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { errorText } from "@/lib/api-error";
import { planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { hasPermission, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { rolesQuery } from "../api/roles-api";
import { plansQuery, type UserListScope, usersListQuery } from "../api/users-api";
import { useUserActions } from "../hooks/use-user-actions";
import { useUserListFilters } from "../hooks/use-user-list-filters";
import {
  grantorOf,
  hasActiveFilters,
  PAGE_SIZES,
  roleChoices,
  roleName,
  statusColor,
  USER_STATUSES,
  userActions,
  withinCeiling,
} from "../lib/users-helpers";
import "../users.css";
import { formatDate, formatDateTime } from "@/lib/format";
import { WIDE_ONLY } from "@/lib/table";

const ACTION_ICONS = {
  approve: <CheckOutlined />,
  disable: <StopOutlined />,
  enable: <UndoOutlined />,
};

/** The staff table of users (`/User`) or of customers only (`/User/customers`), paginated on the server. */
export function UsersList({ scope }: { scope: UserListScope }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { user: me } = useSession();
  const canManage = hasPermission(me, PERMISSIONS.usersManage);
  const canListRoles = hasPermission(me, PERMISSIONS.rolesManage);
  const canSeeAllPlans = hasPermission(me, PERMISSIONS.plansManage);
  const title = t(scope === "customers" ? "users:list.customersTitle" : "users:list.title");
  usePageTitle(title);

  const { filters, setFilters, searchText, onSearchChange, searchNow, clearFilters } = useUserListFilters();

  // the previous page stays on screen (under the table's spinner) while the next one loads
  const list = useQuery({
    ...usersListQuery(scope, scope === "customers" ? { ...filters, role: undefined } : filters),
    placeholderData: keepPreviousData,
  });
  const roles = useQuery({ ...rolesQuery, enabled: canListRoles && scope === "all" });
  const plans = useQuery(plansQuery(canSeeAllPlans ? "all" : "active"));
  const planNames = useMemo(
    () => new Map((plans.data ?? []).map((plan) => [plan.id, planName(plan, lang)])),
    [plans.data, lang],
  );
  const roleOptions = roleChoices(
    roles.data?.map((r) => r.title),
    BUILT_IN_ROLES,
    filters.role,
  ).map((title) => ({ value: title, label: roleName(t, title) }));

  const { actionHandlers, busyId } = useUserActions();
  const grantor = grantorOf(me);
  const never = t("users:list.never");
  const data = list.data;

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t(scope === "customers" ? "users:list.customersSubtitle" : "users:list.subtitle")}
          </Typography.Text>
        </div>
        <Space wrap>
          {scope === "customers" ? (
            <ButtonLink to={to(pagePath("users"))}>{t("users:list.allUsers")}</ButtonLink>
          ) : (
            <ButtonLink to={to(pagePath("customers"))}>{t("users:list.customersOnly")}</ButtonLink>
          )}
          {canListRoles && <ButtonLink to={to(pagePath("roles"))}>{t("users:roles.title")}</ButtonLink>}
          {canManage && (
            <ButtonLink
              to={to(pagePath("userCreate"))}
              type="primary"
              icon={<PlusOutlined />}
              data-testid="user-create"
            >
              {t("users:list.create")}
            </ButtonLink>
          )}
        </Space>
      </Flex>
      <Card>
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <Flex wrap gap={12} role="search" aria-label={t("users:list.filters")} className="users-filters">
            <Input
              type="search"
              value={searchText}
              onChange={(event) => onSearchChange(event.target.value)}
              onPressEnter={() => searchNow(searchText)}
              prefix={<SearchOutlined aria-hidden />}
              placeholder={t("users:list.searchPlaceholder")}
              aria-label={t("users:list.search")}
              allowClear
              maxLength={120}
              style={{ width: 320, maxWidth: "100%" }}
              data-testid="users-search"
            />
            <Select
              value={filters.status}
              onChange={(status) => setFilters({ status })}
              allowClear
              placeholder={t("users:list.anyStatus")}
              aria-label={t("users:list.statusFilter")}
              style={{ width: 180 }}
              options={USER_STATUSES.map((status) => ({ value: status, label: t(`users:status.${status}`) }))}
              data-testid="users-status-filter"
            />
            {scope === "all" && (
              <Select
                value={filters.role}
                onChange={(role) => setFilters({ role })}
                allowClear
                placeholder={t("users:list.anyRole")}
                aria-label={t("users:list.roleFilter")}
                style={{ width: 180 }}
                options={roleOptions}
                data-testid="users-role-filter"
              />
            )}
            {hasActiveFilters(filters) && (
              <Button type="link" onClick={clearFilters}>
                {t("users:list.clearFilters")}
              </Button>
            )}
          </Flex>
          {list.isError && !data ? (
            <Result
              status="warning"
              title={t("users:list.loadError")}
              subTitle={errorText(list.error)}
              extra={<Button onClick={() => void list.refetch()}>{t("users:actions.retry")}</Button>}
            />
          ) : (
            <Table<UserListItem>
              rowKey="id"
              data-testid="users-table"
              loading={list.isFetching}
              dataSource={data?.users ?? []}
              scroll={{ x: true }}
              aria-busy={list.isFetching}
              locale={{
                emptyText: list.isPending ? (
                  <span />
                ) : (
                  <Empty
                    image={Empty.PRESENTED_IMAGE_SIMPLE}
                    description={
                      hasActiveFilters(filters) ? t("users:list.emptyFiltered") : t("users:list.empty")
                    }
                    data-testid="users-empty"
                  />
                ),
              }}
              pagination={{
                current: filters.page,
                pageSize: filters.pageSize,
                total: data?.pagination.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES.map(String),
                showTotal: (total) => t("users:list.total", { count: total }),
              }}
              onChange={(pagination) =>
                setFilters({
                  page: pagination.pageSize !== filters.pageSize ? 1 : (pagination.current ?? 1),
                  pageSize: pagination.pageSize ?? filters.pageSize,
                })
              }
              columns={[
                {
                  // name and email share a column so that the whole row fits beside the menu
                  key: "user",
                  title: t("users:columns.user"),
                  render: (_: unknown, user) => (
                    <div className="users-identity">
                      <strong>{user.full_name || "—"}</strong>
                      <Typography.Text type="secondary">{user.email}</Typography.Text>
                    </div>
                  ),
                },
                {
                  key: "role",
                  responsive: WIDE_ONLY,
                  title: t("users:columns.role"),
                  render: (_: unknown, user) => (
                    <Tag
                      color={user.role === ROLE_ADMIN ? "blue" : undefined}
                      data-testid="user-role"
                      data-role={user.role}
                    >
                      {roleName(t, user.role)}
                    </Tag>
                  ),
                },
                {
                  key: "status",
                  title: t("users:columns.status"),
                  render: (_: unknown, user) => (
                    <Tag color={statusColor(user.status)} data-testid="user-status" data-status={user.status}>
                      {t(`users:status.${user.status}`)}
                    </Tag>
                  ),
                },
                {
                  key: "plan",
                  responsive: WIDE_ONLY,
                  title: t("users:columns.plan"),
                  render: (_: unknown, user) =>
                    user.plan_id ? (planNames.get(user.plan_id) ?? t("users:list.otherPlan")) : "—",
                },
                {
                  key: "created",
                  responsive: WIDE_ONLY,
                  title: t("users:columns.created"),
                  render: (_: unknown, user) => (
                    <span
                      className="users-nowrap"
                      title={formatDateTime(user.created_at, lang, "short") ?? undefined}
                    >
                      {formatDate(user.created_at, lang, "short")}
                    </span>
                  ),
                },
                {
                  key: "lastLogin",
                  responsive: WIDE_ONLY,
                  title: t("users:columns.lastLogin"),
                  render: (_: unknown, user) => (
                    <span className="users-nowrap">
                      {formatDateTime(user.last_login_at, lang, "short") ?? never}
                    </span>
                  ),
                },
                ...(canManage
                  ? [
                      {
                        key: "actions",
                        title: t("users:columns.actions"),
                        className: "users-nowrap",
                        fixed: "right" as const,
                        render: (_: unknown, user: UserListItem) => {
                          const name = user.full_name || user.email;
                          const loading = busyId === user.id;
                          return (
                            <Space size={4} wrap={false}>
                              {userActions(user, me?.id, withinCeiling(grantor, user.role, roles.data)).map(
                                (action) => {
                                  const label = t(`users:actions.${action}User`, { name });
                                  const common = {
                                    size: "small" as const,
                                    "aria-label": label,
                                    "data-testid": `user-${action}`,
                                  };
                                  const button =
                                    action === "edit" ? (
                                      <ButtonLink
                                        {...common}
                                        icon={<EditOutlined />}
                                        to={to(pagePath("userEdit", { id: user.id }))}
                                      />
                                    ) : (
                                      <Button
                                        {...common}
                                        type={action === "approve" ? "primary" : "default"}
                                        danger={action === "disable"}
                                        icon={ACTION_ICONS[action]}
                                        loading={loading}
                                        onClick={() => actionHandlers[action](user)}
                                      />
                                    );
                                  return (
                                    <Tooltip
                                      key={action}
                                      title={t(`users:actions.${action}`)}
                                      trigger={["hover", "focus"]}
                                    >
                                      {button}
                                    </Tooltip>
                                  );
                                },
                              )}
                            </Space>
                          );
                        },
                      },
                    ]
                  : []),
              ]}
            />
          )}
        </Space>
      </Card>
    </Space>
  );
}
