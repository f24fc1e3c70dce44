import { lazy, Suspense } from "react";
import { FullPageSpinner } from "@/components/full-page-spinner";
import { loadShellTexts } from "@/lib/i18n";
import { useSession } from "@/lib/session";
import { PublicLayout } from "./public-layout";

/** The signed-in shell, in its own chunk (visitors never load it). */
const AppShell = lazy(async () => {
  const [{ AppLayout }] = await Promise.all([import("./app-layout"), loadShellTexts()]);
  return { default: AppLayout };
});

/**
 * The layout of a page both visitors and learners open (catalogue, course, plans, events): the
 * app's shell once the session is known to be signed in, so a learner following the menu's
 * "Cours" keeps the menu; the public layout otherwise (and on the server, and while the session
 * is restored, so a server-rendered page hydrates as it was rendered).
 */
export function SessionLayout() {
  const { status } = useSession();
  if (status !== "authenticated") return <PublicLayout />;
  return (
    <Suspense fallback={<FullPageSpinner label="" />}>
      <AppShell />
    </Suspense>
  );
}
