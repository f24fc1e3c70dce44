import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { Outlet, useMatches } from "react-router";
import { loadAllTexts } from "../lib/i18n";

/**
 * A route's `handle`: `ownProviders` for a page that needs no antd (plain markup) or wraps itself
 * in antd's providers (routes made by `page()` in the router).
 */
export interface PageHandle {
  ownProviders?: boolean;
}

type Root = ComponentType<{ children: ReactNode }>;
let loading: Promise<Root> | null = null;

/** antd's providers and every text, once; the router starts it with the chunk of a page that needs them. */
export function loadAntdRoot(): Promise<Root> {
  loading ??= Promise.all([import("./antd-root"), loadAllTexts()]).then(([m]) => m.AntdRoot);
  // a failed load (offline, a stale deploy) may be tried again by the next navigation
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

const LazyRoot = lazy(() => loadAntdRoot().then((root) => ({ default: root })));

/**
 * The signed-in shell's outlet. The shell is plain markup; the pages built with antd get its
 * providers here (loaded beside their chunk), and a page that needs none is rendered as it is.
 */
export function AntdOutlet({ fallback }: { fallback: ReactNode }) {
  const matches = useMatches();
  const own = matches.some((match) => (match.handle as PageHandle | undefined)?.ownProviders === true);
  if (own) return <Outlet />;
  return (
    <Suspense fallback={fallback}>
      <LazyRoot>
        <Outlet />
      </LazyRoot>
    </Suspense>
  );
}
