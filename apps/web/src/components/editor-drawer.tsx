import { Drawer } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The side panel of staff screens (create or edit a plan, an event, a template…): its content
 * is unmounted when hidden, so a form always opens fresh, and its close button is labelled.
 */
export function EditorDrawer(props: {
  title: ReactNode;
  open: boolean;
  onClose: () => void;
  size?: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      title={props.title}
      open={props.open}
      onClose={props.onClose}
      size={props.size ?? 560}
      destroyOnHidden
      closable={{ "aria-label": t("common:actions.close") }}
    >
      {props.children}
    </Drawer>
  );
}
