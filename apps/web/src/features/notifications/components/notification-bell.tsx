import BellOutlined from "@ant-design/icons-svg/es/asn/BellOutlined";
import { isLocalPath, type NotificationItem } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PlainIcon } from "@/components/plain-icon";
import { withAntd } from "@/components/with-antd";
import { useLocalePath } from "@/lib/use-locale";
import {
  latestNotificationsQuery,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
} from "../api/notifications-api";

const loadList = () => withAntd(import("./notification-list").then((m) => m.NotificationList));
const NotificationList = lazy(() => loadList().then((list) => ({ default: list })));

/**
 * App header bell: unread badge, the latest 10 notifications in a panel under it, mark one or all
 * read. The bell is plain markup (the shell loads no antd); the panel's list comes with its chunk.
 * Escape or a click outside closes the panel, and the focus goes back to the bell.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { data } = useQuery(latestNotificationsQuery);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = data?.unread ?? 0;
  const panelId = useId();
  const titleId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const close = (focusBell: boolean) => {
      setOpen(false);
      if (focusBell) button.current?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close(true);
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) close(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  const openItem = (n: NotificationItem) => {
    if (!n.read_at) markRead.mutate(n.id);
    if (n.link && isLocalPath(n.link)) {
      setOpen(false);
      navigate(to(n.link));
    }
  };

  return (
    <span className="bell">
      <button
        ref={button}
        type="button"
        className="btn btn--circle"
        aria-label={t("notifications:button")}
        title={unread > 0 ? t("notifications:unread", { count: unread }) : t("notifications:button")}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid="notifications-button"
        onClick={() => setOpen((was) => !was)}
        // the panel's chunk, fetched while the pointer or the focus is on its way to a click
        onPointerEnter={() => void loadList()}
        onFocus={() => void loadList()}
      >
        <PlainIcon icon={BellOutlined} />
      </button>
      {unread > 0 && (
        <span className="bell__badge" data-testid="notifications-badge" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
      {open && (
        <div
          ref={panel}
          id={panelId}
          className="bell__panel"
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
        >
          <h2 id={titleId} className="bell__title">
            {t("notifications:title")}
          </h2>
          <Suspense fallback={<p aria-busy="true">{t("common:loading")}</p>}>
            <NotificationList
              items={data?.notifications ?? []}
              unread={unread}
              onOpenItem={openItem}
              onReadAll={() => markAll.mutate()}
              readingAll={markAll.isPending}
            />
          </Suspense>
        </div>
      )}
    </span>
  );
}
