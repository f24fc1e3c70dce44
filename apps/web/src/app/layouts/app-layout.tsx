import MenuFoldOutlined from "@ant-design/icons-svg/es/asn/MenuFoldOutlined";
import MenuOutlined from "@ant-design/icons-svg/es/asn/MenuOutlined";
import MenuUnfoldOutlined from "@ant-design/icons-svg/es/asn/MenuUnfoldOutlined";
import RocketOutlined from "@ant-design/icons-svg/es/asn/RocketOutlined";
import SettingOutlined from "@ant-design/icons-svg/es/asn/SettingOutlined";
import type { CurrentUser } from "@parlons/contract";
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { AntdOutlet } from "@/components/antd-outlet";
import { FullPageSpinner } from "@/components/full-page-spinner";
import { LangSwitch } from "@/components/lang-switch";
import { PlainIcon } from "@/components/plain-icon";
import { withAntd } from "@/components/with-antd";
import { NotificationBell } from "@/features/notifications/components/notification-bell";
import { isFreePlan, planName } from "@/lib/format";
import { type Lang, stripLang } from "@/lib/locale-path";
import { pagePath } from "@/lib/paths";
import { isAdmin, isCustomer, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { useIsPhone } from "@/lib/use-media-query";
import { useScrollableTables } from "@/lib/use-scrollable-tables";
import { AppMenu } from "./app-menu";
import { buildMenu, selectedMenuKey } from "./menu";
import { SkipLink } from "./public-layout";

/** The settings drawer (antd), loaded when first opened. */
const loadSettingsDrawer = () => withAntd(import("./settings-drawer").then((m) => m.SettingsDrawer));
const SettingsDrawer = lazy(() => loadSettingsDrawer().then((drawer) => ({ default: drawer })));

/**
 * Signed-in layout (spec §2 "Admin"): module sider, plan tag, settings drawer. Plain markup, no
 * antd: a page that needs none (and the shell's own first paint) loads none; the pages built with
 * antd get its providers from the outlet (components/antd-outlet.tsx).
 */
export function AppLayout() {
  const { t } = useTranslation();
  const { user } = useSession();
  const lang = useLang();
  const to = useLocalePath();
  const location = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // once opened, the drawer stays mounted (antd animates its closing)
  const [drawerWanted, setDrawerWanted] = useState(false);

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
  const moduleMenu = (collapsedMenu: boolean) => (
    <AppMenu
      menu={menu}
      selected={selected}
      collapsed={collapsedMenu}
      onExpand={() => setCollapsed(false)}
      onNavigate={() => setMenuOpen(false)}
      label={t("app:menu")}
    />
  );
  const upgrade = isCustomer(user) && isFreePlan(user.plan) && (
    <Link
      className="btn btn--primary"
      to={to(pagePath("pricing"))}
      title={t("app:plan.upgradeHint")}
      aria-label={phone ? `${t("app:plan.upgrade")} · ${t("app:plan.upgradeHint")}` : undefined}
      data-testid="upgrade-button"
    >
      <PlainIcon icon={RocketOutlined} />
      {!phone && (
        <span>
          {t("app:plan.upgrade")}
          <span className="hide-small"> · {t("app:plan.upgradeHint")}</span>
        </span>
      )}
    </Link>
  );
  const openSettings = () => {
    setDrawerWanted(true);
    setDrawerOpen(true);
  };

  return (
    <div className={phone ? "app-layout app-layout--phone" : "app-layout"}>
      <SkipLink />
      {phone ? (
        <MenuDrawer open={menuOpen} onClose={() => setMenuOpen(false)} title={logo(true)}>
          {moduleMenu(false)}
        </MenuDrawer>
      ) : (
        <aside className={collapsed ? "app-sider app-sider--collapsed" : "app-sider"}>
          {logo(!collapsed)}
          {moduleMenu(collapsed)}
        </aside>
      )}
      <div className="app-main">
        <header className="app-header">
          {phone ? (
            <button
              type="button"
              className="btn btn--text btn--square"
              onClick={() => setMenuOpen(true)}
              aria-label={t("app:openMenu")}
              aria-expanded={menuOpen}
              aria-controls="app-menu-drawer"
              data-testid="menu-button"
            >
              <PlainIcon icon={MenuOutlined} />
            </button>
          ) : (
            <button
              type="button"
              className="btn btn--text btn--square"
              onClick={() => setCollapsed(!collapsed)}
              aria-label={collapsed ? t("app:expand") : t("app:collapse")}
              aria-expanded={!collapsed}
              data-testid="sider-toggle"
            >
              <PlainIcon icon={collapsed ? MenuUnfoldOutlined : MenuFoldOutlined} />
            </button>
          )}
          <div className="app-header__actions">
            <PlanTag user={user} lang={lang} />
            {upgrade}
            <LangSwitch />
            <NotificationBell />
            <button
              type="button"
              className="btn btn--circle"
              aria-label={t("app:settings")}
              title={t("app:settings")}
              data-testid="settings-button"
              onClick={openSettings}
              // the drawer's chunk, fetched while the pointer or the focus is on its way to a click
              onPointerEnter={() => void loadSettingsDrawer()}
              onFocus={() => void loadSettingsDrawer()}
            >
              <PlainIcon icon={SettingOutlined} />
            </button>
          </div>
        </header>
        <main id="main" tabIndex={-1} className="app-content">
          <AntdOutlet fallback={<FullPageSpinner label={t("common:loading")} />} />
        </main>
      </div>
      {drawerWanted && (
        <Suspense fallback={null}>
          <SettingsDrawer user={user} open={drawerOpen} onClose={() => setDrawerOpen(false)} phone={phone} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The phone's menu: a modal `<dialog>` sliding in from the left (the browser keeps the focus in
 * it, Escape closes it, the page behind is inert); a tap beside it closes it too.
 */
function MenuDrawer({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    else if (!open && element.open) element.close();
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is a tap on the backdrop; the keyboard closes the dialog with Escape (native) or its close button
    <dialog
      ref={dialog}
      id="app-menu-drawer"
      className="app-menu-drawer"
      data-testid="app-menu-drawer"
      aria-label={t("app:menu")}
      onClose={onClose}
      onClick={(event) => {
        // the dialog itself is under the pointer only outside its panel: on the backdrop
        if (event.target === dialog.current) onClose();
      }}
    >
      <div className="app-menu-drawer__panel">
        <div className="app-menu-drawer__head">
          {title}
          <button
            type="button"
            className="btn btn--text btn--square"
            onClick={onClose}
            aria-label={t("app:closeMenu")}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {children}
      </div>
    </dialog>
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
    <span
      className={isFreePlan(user.plan) || isAdmin(user) ? "tag tag--blue plan-tag" : "tag tag--gold plan-tag"}
      data-testid="plan-tag"
    >
      <span className="visually-hidden">{t("app:plan.label")}: </span>
      {label}
    </span>
  );
}
