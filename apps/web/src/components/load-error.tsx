import ReloadOutlined from "@ant-design/icons-svg/es/asn/ReloadOutlined";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "@/lib/api-error";
import { PlainButton } from "./plain-button";
import { PlainIcon } from "./plain-icon";

/** What went wrong, in the learner's words: no network, too slow, our fault, or the API's own reason. */
function loadErrorKind(error: unknown): "network" | "timeout" | "server" | "other" {
  if (!(error instanceof ApiError)) return "other";
  if (error.code === "TIMEOUT") return "timeout";
  if (error.status === 0) return "network";
  if (error.status >= 500) return "server";
  return "other";
}

/**
 * The error state of a screen that loads data: what happened, in the page's language, and Retry.
 * Plain markup (no antd), so that public pages that load none can show it too.
 */
export function LoadError({
  query,
  compact = false,
}: {
  /** The failed query (TanStack's result): its error, and Retry refetches it. */
  query: { error: unknown; isFetching: boolean; refetch: () => Promise<unknown> };
  /** Inside a card or a list rather than as the whole page. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const { error, isFetching: retrying } = query;
  const kind = loadErrorKind(error);
  const detail = kind === "other" ? errorText(error) : t(`common:loadError.${kind}`);
  const Heading = compact ? "h2" : "h1";
  return (
    <div className={compact ? "result result--compact" : "result"} role="alert" data-testid="load-error">
      {!compact && (
        <div className="result__code" aria-hidden="true">
          !
        </div>
      )}
      <Heading className="result__title">{t("common:loadError.title")}</Heading>
      <p className="result__subtitle">{detail}</p>
      <PlainButton
        kind="primary"
        icon={<PlainIcon icon={ReloadOutlined} />}
        onClick={() => void query.refetch()}
        disabled={retrying}
        aria-busy={retrying}
        data-testid="load-error-retry"
      >
        {t("common:loadError.retry")}
      </PlainButton>
    </div>
  );
}
