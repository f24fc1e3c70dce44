import { useTranslation } from "react-i18next";
import { type createBrowserRouter, RouterProvider } from "react-router";
import { FullPageSpinner } from "../components/full-page-spinner";
import { langFromPath } from "../lib/locale-path";
import { loginPathFor } from "../lib/redirect";
import { onSessionLost, useSession } from "../lib/session";

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** A 401 that no refresh can fix: back to login, remembering the page (spec §4). */
export function redirectOnSessionLoss(router: AppRouter): void {
  onSessionLost(() => {
    const { pathname, search, hash } = router.state.location;
    void router.navigate(loginPathFor(pathname + search + hash, langFromPath(pathname)), { replace: true });
  });
}

/**
 * Renders the routes. A client-rendered page waits for the initial session restore first; a
 * server-rendered one is hydrated at once (its guards wait for the session themselves).
 */
export function AppRoot({ router, waitForSession }: { router: AppRouter; waitForSession: boolean }) {
  const { status } = useSession();
  const { t } = useTranslation();
  if (waitForSession && status === "loading") return <FullPageSpinner label={t("common:loading")} />;
  return <RouterProvider router={router} />;
}
