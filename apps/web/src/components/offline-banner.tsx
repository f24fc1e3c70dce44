import { useTranslation } from "react-i18next";
import { useOnline } from "@/lib/online";

/** Tells the learner the network is gone and what still works (a polite status, no focus taken). */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  return (
    <div role="status" className="offline-banner-slot">
      {!online && (
        <p className="offline-banner" data-testid="offline-banner">
          <strong>{t("common:pwa.offlineTitle")}</strong> {t("common:pwa.offlineText")}
        </p>
      )}
    </div>
  );
}
