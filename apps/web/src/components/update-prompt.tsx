import { useTranslation } from "react-i18next";
import { dismissNewVersion, reloadToNewVersion, usePwaState } from "@/lib/pwa";
import { PlainButton } from "./plain-button";

/**
 * "A new version is available": shown when the service worker installed a new build. Reload
 * makes it take over (and the page reloads); Later keeps the current version until the next visit.
 * Plain markup (no antd): it may show on a public page. A polite live region: it never steals focus.
 */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const { needRefresh } = usePwaState();
  if (!needRefresh) return null;
  return (
    <section className="update-prompt" role="status" aria-live="polite" data-testid="update-prompt">
      <p className="update-prompt__text">{t("common:pwa.newVersion")}</p>
      <div className="update-prompt__actions">
        <PlainButton kind="primary" onClick={() => void reloadToNewVersion()}>
          {t("common:pwa.reload")}
        </PlainButton>
        <PlainButton onClick={dismissNewVersion}>{t("common:pwa.later")}</PlainButton>
      </div>
    </section>
  );
}
