import {
  CloudDownloadOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  RocketOutlined,
  SettingOutlined,
  UserOutlined,
} from "@ant-design/icons";
import type { CurrentUser } from "@parlons/contract";
import { App, Avatar, Button, Drawer, Flex, Layout, Menu, Space, Tag, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LangSwitch } from "@/components/lang-switch";
import { NotificationBell } from "@/features/notifications/components/notification-bell";
import { isFreePlan, planName } from "@/lib/format";
import { type Lang, stripLang } from "@/lib/locale-path";
import { pagePath } from "@/lib/paths";
import { isAdmin, isCustomer, logout, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { useIsPhone } from "@/lib/use-media-query";
import { useScrollableTables } from "@/lib/use-scrollable-tables";
import { buildMenu, parentKeys, selectedMenuKey } from "./menu";
import { SkipLink } from "./public-layout";

/** Signed-in layout (spec §2 "Admin"): module sider, plan tag, settings drawer. */
export function AppLayout() {
  const { t } = useTranslation();
  const { user } = useSession();
  const lang = useLang();
  const to = useLocalePath();
  const navigate = useNavigate();
  const location = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);

  const [menuOpen, setMenuOpen] = useState(false);
  const phone = useIsPhone();

  const menu = useMemo(() => buildMenu(user?.modules ?? [], lang), [user?.modules, lang]);
  const selected = selectedMenuKey(menu, stripLang(location.pathname));
  // The phone drawer closes once the learner has picked a page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation on purpose
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useScrollableTables("#main", t("common:scrollableTable"), user !== null);
  if (!user) return null;

  const logo = (withName: boolean) => (
    <Link
      to={to(pagePath("dashboard"))}
      className="logo app-logo"
      aria-label={`Parlons – ${t("common:nav.dashboard")}`}
    >
      <img src="/favicon.svg" alt="" width={28} height={28} />
      {withName && <span>Parlons</span>}
    </Link>
  );
  const moduleMenu = (
    <nav aria-label={t("app:menu")}>
      <Menu
        mode="inline"
        items={menu.items}
        selectedKeys={selected ? [selected] : []}
        defaultOpenKeys={selected ? parentKeys(selected) : []}
        data-testid="app-menu"
        onClick={({ key }) => {
          const module = menu.byKey.get(key);
          if (!module) return;
          setMenuOpen(false);
          if (module.external) window.location.assign(module.path);
          else navigate(to(module.path));
        }}
      />
    </nav>
  );
  const upgrade = isCustomer(user) && isFreePlan(user.plan) && (
    <ButtonLink
      type="primary"
      icon={<RocketOutlined />}
      to={to(pagePath("pricing"))}
      title={t("app:plan.upgradeHint")}
      aria-label={phone ? `${t("app:plan.upgrade")} · ${t("app:plan.upgradeHint")}` : undefined}
      data-testid="upgrade-button"
    >
      {!phone && (
        <>
          {t("app:plan.upgrade")}
          <span className="hide-small"> · {t("app:plan.upgradeHint")}</span>
        </>
      )}
    </ButtonLink>
  );

  return (
    <Layout className={phone ? "app-layout app-layout--phone" : "app-layout"}>
      <SkipLink />
      {phone ? (
        <Drawer
          placement="left"
          size={288}
          open={menuOpen}
          onClose={() => setMenuOpen(false)}
          title={logo(true)}
          closable={{ "aria-label": t("app:closeMenu") }}
          rootClassName="app-menu-drawer"
          data-testid="app-menu-drawer"
          id="app-menu-drawer"
        >
          {moduleMenu}
        </Drawer>
      ) : (
        <Layout.Sider
          breakpoint="lg"
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          trigger={null}
          width={240}
          theme="light"
          className="app-sider"
        >
          {logo(!collapsed)}
          {moduleMenu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="app-header">
          {phone ? (
            <Button
              type="text"
              icon={<MenuOutlined />}
              onClick={() => setMenuOpen(true)}
              aria-label={t("app:openMenu")}
              aria-expanded={menuOpen}
              aria-controls="app-menu-drawer"
              data-testid="menu-button"
            />
          ) : (
            <Button
              type="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed(!collapsed)}
              aria-label={collapsed ? t("app:expand") : t("app:collapse")}
              aria-expanded={!collapsed}
              data-testid="sider-toggle"
            />
          )}
          <Space size={phone ? "small" : "middle"} wrap={!phone} className="app-header__actions">
            <PlanTag user={user} lang={lang} />
            {upgrade}
            <LangSwitch />
            <NotificationBell />
            <Button
              shape="circle"
              icon={<SettingOutlined />}
              aria-label={t("app:settings")}
              title={t("app:settings")}
              data-testid="settings-button"
              onClick={() => setDrawerOpen(true)}
            />
          </Space>
        </Layout.Header>
        <Layout.Content id="main" tabIndex={-1} className="app-content">
          <Outlet />
        </Layout.Content>
      </Layout>
      <SettingsDrawer user={user} open={drawerOpen} onClose={() => setDrawerOpen(false)} phone={phone} />
    </Layout>
  );
}

function PlanTag({ user, lang }: { user: CurrentUser; lang: Lang }) {
  const { t } = useTranslation();
  const label = isAdmin(user)
    ? t("app:plan.discovery")
    : user.plan
      ? planName(user.plan, lang)
      : t("app:plan.none");
  return (
    <Tag
      color={isFreePlan(user.plan) || isAdmin(user) ? "blue" : "gold"}
      data-testid="plan-tag"
      className="plan-tag"
    >
      <span className="visually-hidden">{t("app:plan.label")}: </span>
      {label}
    </Tag>
  );
}

/** Spec §2: name, role, View Profile and Logout; closing asks 'Confirm / Are you sure?'. */
function SettingsDrawer({
  user,
  open,
  onClose,
  phone,
}: {
  user: CurrentUser;
  open: boolean;
  onClose: () => void;
  phone: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const to = useLocalePath();

  const confirmClose = () => {
    modal.confirm({
      title: t("common:confirm.title"),
      content: t("common:confirm.areYouSure"),
      okText: t("common:actions.ok"),
      cancelText: t("common:actions.cancel"),
      onOk: onClose,
    });
  };

  const confirmLogout = () => {
    modal.confirm({
      title: t("auth:logout.title"),
      content: t("auth:logout.confirm"),
      okText: t("auth:logout.ok"),
      cancelText: t("common:actions.cancel"),
      icon: <LogoutOutlined />,
      onOk: async () => {
        await logout();
        onClose();
        navigate(to("/"), { replace: true });
      },
    });
  };

  return (
    <Drawer
      title={t("app:drawerTitle")}
      placement="right"
      size={phone ? "100%" : 400}
      open={open}
      onClose={confirmClose}
      closable={{ "aria-label": t("common:actions.close") }}
      data-testid="settings-drawer"
    >
      <Flex vertical align="center" gap={12}>
        <Avatar size={72} icon={<UserOutlined />} />
        <Typography.Title level={2} style={{ margin: 0 }} data-testid="drawer-name">
          {user.full_name || user.email}
        </Typography.Title>
        <Typography.Text type="secondary">{user.email}</Typography.Text>
        <Tag data-testid="drawer-role">
          {t("app:role")}: {t(`app:roles.${user.role}`, { defaultValue: user.role })}
        </Tag>
        <Flex vertical gap={8} style={{ width: "100%", marginTop: 16 }}>
          <Button
            block
            icon={<UserOutlined />}
            data-testid="view-profile"
            onClick={() => {
              onClose();
              navigate(to(pagePath("profile")));
            }}
          >
            {t("app:viewProfile")}
          </Button>
          <Button
            block
            icon={<CloudDownloadOutlined />}
            data-testid="view-downloads"
            onClick={() => {
              onClose();
              navigate(to(pagePath("downloads")));
            }}
          >
            {t("app:downloads")}
          </Button>
          <Button block danger icon={<LogoutOutlined />} onClick={confirmLogout} data-testid="logout-button">
            {t("app:logout")}
          </Button>
        </Flex>
      </Flex>
    </Drawer>
  );
}
