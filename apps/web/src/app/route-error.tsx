import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { isChunkLoadError, reloadOnce } from "../lib/chunk-reload";
import { langFromPath, localizePath } from "../lib/locale-path";
import { usePageTitle } from "../lib/use-page-title";

/** Error page of spec §8: status code (default 500), message, Back Home. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  usePageTitle(t("common:error.title"));

  if (isChunkLoadError(error) && reloadOnce()) return null;

  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? error.statusText || String(error.data ?? "")
    : error instanceof Error
      ? error.message
      : t("common:error.unknown");
  if (!isRouteErrorResponse(error)) console.error(error);
  const home = localizePath("/", langFromPath(window.location.pathname));

  return (
    <main className="error-page" id="main">
      <div className="result">
        <h1 className="result__code">{status}</h1>
        <div className="result__subtitle">
          <div>{t("common:error.title")}</div>
          <div data-testid="error-message">{message || t("common:error.unknown")}</div>
        </div>
        {/* a full load: the app may be in a broken state */}
        <a className="btn btn--primary" href={home}>
          {t("common:actions.backHome")}
        </a>
      </div>
    </main>
  );
}
