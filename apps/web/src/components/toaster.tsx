import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { currentToasts, dismissToast, subscribeToasts, type Toast } from "@/lib/toast";

const none: Toast[] = [];

/**
 * The messages of lib/toast.ts, plain markup: successes in a polite status region, errors in an
 * alert region (read at once), each with a close button; neither takes the focus.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(subscribeToasts, currentToasts, () => none);
  const list = (kind: "polite" | "assertive") =>
    toasts
      .filter((toast) => (toast.kind === "error") === (kind === "assertive"))
      .map((toast) => (
        <p key={toast.id} className={`toast toast--${toast.kind}`} data-testid={`toast-${toast.kind}`}>
          <span className="toast__text">{toast.text}</span>
          <button
            type="button"
            className="toast__close"
            aria-label={t("common:actions.close")}
            onClick={() => dismissToast(toast.id)}
          >
            ×
          </button>
        </p>
      ));
  return (
    <>
      <div role="status" aria-live="polite" className="toasts">
        {list("polite")}
      </div>
      <div role="alert" aria-live="assertive" className="toasts">
        {list("assertive")}
      </div>
    </>
  );
}
