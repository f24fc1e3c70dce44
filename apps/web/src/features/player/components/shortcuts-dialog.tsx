import { Modal } from "antd";
import { useTranslation } from "react-i18next";

const ROWS = [
  { keys: ["Space", "K"], action: "toggle" },
  { keys: ["J"], action: "back10" },
  { keys: ["L"], action: "forward10" },
  { keys: ["←"], action: "back5" },
  { keys: ["→"], action: "forward5" },
  { keys: ["Shift + <"], action: "slower" },
  { keys: ["Shift + >"], action: "faster" },
  { keys: ["M"], action: "mute" },
  { keys: ["0–9"], action: "seekPercent" },
  { keys: ["?"], action: "help" },
] as const;

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={onClose}
      title={t("player:shortcuts.title")}
      footer={null}
      data-testid="shortcuts-dialog"
    >
      <table className="shortcuts-table">
        <caption className="visually-hidden">{t("player:shortcuts.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("player:shortcuts.key")}</th>
            <th scope="col">{t("player:shortcuts.action")}</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.action}>
              <td>
                {row.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && " / "}
                    <kbd>{k === "Space" ? t("player:shortcuts.space") : k}</kbd>
                  </span>
                ))}
              </td>
              <td>{t(`player:shortcuts.${row.action}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="shortcuts-note">{t("player:shortcuts.note")}</p>
    </Modal>
  );
}
