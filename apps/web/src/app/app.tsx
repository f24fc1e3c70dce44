import { useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import { FullPageSpinner } from "../components/full-page-spinner";
import { langFromPath } from "../lib/locale-path";
import { loginPathFor } from "../lib/redirect";
import { onSessionLost, useSession } from "../lib/session";
import { createAppRouter } from "./router";

const router = createAppRouter();

// A 401 that no refresh can fix: back to login, remembering the page (spec §4).
onSessionLost(() => {
  const { pathname, search, hash } = router.state.location;
  void router.navigate(loginPathFor(pathname + search + hash, langFromPath(pathname)), { replace: true });
});

/** Waits for the initial session restore, then renders the routes. */
export function AppRoot() {
  const { status } = useSession();
  const { t } = useTranslation();
  if (status === "loading") return <FullPageSpinner label={t("common:loading")} />;
  return <RouterProvider router={router} />;
}
