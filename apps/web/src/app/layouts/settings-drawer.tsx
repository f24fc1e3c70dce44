import { CloudDownloadOutlined, LogoutOutlined, UserOutlined } from "@ant-design/icons";
import type { CurrentUser } from "@parlons/contract";
import { App, Avatar, Button, Drawer, Flex, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { pagePath } from "@/lib/paths";
import { logout } from "@/lib/session";
import { useLocalePath } from "@/lib/use-locale";

/**
 * Spec §2: name, role, View Profile and Logout; closing asks 'Confirm / Are you sure?'. Built
 * with antd, loaded when first opened: the shell around the pages is plain markup.
 */
export function SettingsDrawer({
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
