import type { ComponentType } from "react";
import type { RouteObject } from "react-router";
import { loadAntdRoot, type PageHandle } from "../components/antd-outlet";
import { withAntd } from "../components/with-antd";

/* How a route loads its page: with antd's providers or without (see components/antd-outlet.tsx). */

/** Lazy page built with antd: its chunk loads on first visit (the loading bar shows after 200 ms). */
export function page<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
): Pick<RouteObject, "lazy" | "handle"> {
  const handle: PageHandle = { ownProviders: true };
  return { lazy: async () => ({ Component: await withAntd(load().then(pick)) }), handle };
}

/**
 * Lazy page without antd's providers: plain markup, or inside the signed-in shell, whose outlet
 * gives them (components/antd-outlet.tsx) unless the route's handle says it needs none.
 */
export function plainPage<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
): Pick<RouteObject, "lazy"> {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

/** The pages shown by the session layout bring their own providers (or need none). */
export function ownProviders(list: RouteObject[]): RouteObject[] {
  const handle: PageHandle = { ownProviders: true };
  return list.map((route) => ({ ...route, handle: route.handle ?? handle }));
}

/**
 * The signed-in pages that need antd's providers (from the shell's outlet) load them beside their
 * own chunk, not after it.
 */
export function withAntdProviders(list: RouteObject[]): RouteObject[] {
  return list.map((route) => {
    const own = (route.handle as PageHandle | undefined)?.ownProviders === true;
    const children = route.children ? withAntdProviders(route.children) : undefined;
    const lazy = route.lazy;
    if (own || typeof lazy !== "function")
      return { ...route, ...(children ? { children } : {}) } as RouteObject;
    return {
      ...route,
      ...(children ? { children } : {}),
      lazy: async () => (await Promise.all([lazy(), loadAntdRoot()]))[0],
    } as RouteObject;
  });
}
