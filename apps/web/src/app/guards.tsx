import type { ReactNode } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { pagePath } from "@/lib/paths";
import { Forbidden } from "../components/forbidden";
import { FullPageSpinner } from "../components/full-page-spinner";
import { langFromPath, localizePath } from "../lib/locale-path";
import { loginPathFor } from "../lib/redirect";
import { hasPermission, useSession } from "../lib/session";

/** auth: unauthenticated visitors go to the login page, which remembers this page. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  // a server-rendered page starts before the session is restored
  if (status === "loading") return <FullPageSpinner label="" />;
  if (status !== "authenticated") {
    const here = location.pathname + location.search + location.hash;
    return <Navigate to={loginPathFor(here, langFromPath(location.pathname))} replace />;
  }
  return children ?? <Outlet />;
}

/** guest (notAuthenticated): signed-in users go to their dashboard. */
export function GuestOnly({ children }: { children?: ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  if (status === "loading") return <FullPageSpinner label="" />;
  if (status === "authenticated") {
    return <Navigate to={localizePath(pagePath("dashboard"), langFromPath(location.pathname))} replace />;
  }
  return children ?? <Outlet />;
}

/** permission(slug): without it, a 403 page inside the layout. Use inside RequireAuth. */
export function RequirePermission({ slug, children }: { slug: string; children?: ReactNode }) {
  const { user } = useSession();
  if (!hasPermission(user, slug)) return <Forbidden />;
  return children ?? <Outlet />;
}
