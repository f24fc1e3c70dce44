import type { UserListItem } from "@parlons/contract";
import { App } from "antd";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "@/lib/api-error";
import { useApproveUser, useSetUserStatus } from "../api/users-api";

/** The user list's row actions (approve, enable, disable after a confirm), with their messages. */
export function useUserActions() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const approve = useApproveUser();
  const setStatus = useSetUserStatus();

  const failed = (error: unknown) => {
    const text =
      error instanceof ApiError && error.code === "FORBIDDEN"
        ? t("users:errors.forbiddenSelf")
        : errorText(error);
    void message.error(text, 6);
  };

  const onApprove = (user: UserListItem) =>
    approve.mutate(user.id, {
      onSuccess: () => void message.success(t("users:actions.approved", { name: user.full_name })),
      onError: failed,
    });

  const onEnable = (user: UserListItem) =>
    setStatus.mutate(
      { userId: user.id, status: "ACTIVE" },
      {
        onSuccess: () => void message.success(t("users:actions.enabled", { name: user.full_name })),
        onError: failed,
      },
    );

  const onDisable = (user: UserListItem) =>
    modal.confirm({
      title: t("users:disable.title", { name: user.full_name || user.email }),
      content: t("users:disable.text"),
      okText: t("users:disable.ok"),
      okButtonProps: { danger: true },
      cancelText: t("common:actions.cancel"),
      onOk: () =>
        setStatus
          .mutateAsync({ userId: user.id, status: "DISABLED" })
          .then(() => void message.success(t("users:actions.disabled", { name: user.full_name })))
          .catch(failed),
    });

  const actionHandlers = { approve: onApprove, disable: onDisable, enable: onEnable };

  const busyId =
    (approve.isPending && approve.variables) || (setStatus.isPending && setStatus.variables?.userId);
  return { actionHandlers, busyId };
}
