import { Button, Result } from "antd";
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
      <Result
        status={status === 404 ? "404" : status === 403 ? "403" : "500"}
        title={<h1 className="result-title">{status}</h1>}
        subTitle={
          <>
            <div>{t("common:error.title")}</div>
            <div data-testid="error-message">{message || t("common:error.unknown")}</div>
          </>
        }
        extra={
          <Button type="primary" href={home}>
            {t("common:actions.backHome")}
          </Button>
        }
      />
    </main>
  );
}
