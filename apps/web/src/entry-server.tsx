/**
 * The server renderer of the public pages (built by `vite build --ssr` into dist-server/ and
 * imported by the API process): the page's markup, antd's styles for it, its title and
 * description, and the API data it used, for the browser to hydrate without fetching again.
 */
import { createCache, extractStyle, StyleProvider } from "@ant-design/cssinjs";
import { type Lang, langFromPath, localizePath } from "@parlons/contract";
import { dehydrate, type Query, QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { Providers } from "./app/providers";
import { appRouteTree } from "./app/router";
import { type ApiTransport, setApiTransport } from "./lib/api";
import { initI18n, setLanguage, type Texts } from "./lib/i18n";
import { collectPageHead, type PageHead } from "./lib/page-head";
import { type ServerRender, serverRenderJson } from "./lib/server-render";

export type { ApiTransport };

export interface RenderedPage {
  lang: Lang;
  /** The markup inside `#root`. */
  html: string;
  /** For the head: the preloads React found and antd's `<style>` elements for that markup. */
  styles: string;
  head: Required<PageHead>;
  /** The JSON text of the `#ssr-data` element. */
  data: string;
}

/** The module of each server-rendered route, whose chunk (and CSS) the page links in its head. */
const routeModules: Record<string, string> = {
  home: "src/features/site/pages/home-page.tsx",
  courses: "src/features/courses/pages/catalog-page.tsx",
  coursesMore: "src/features/courses/pages/catalog-page.tsx",
  course: "src/features/courses/pages/course-page.tsx",
  pricing: "src/features/billing/pages/pricing-page.tsx",
  faqs: "src/features/site/pages/faq-page.tsx",
  contact: "src/features/site/pages/contact-page.tsx",
  legal: "src/features/site/pages/legal-page.tsx",
};
/** Routes drawn without antd (see router.tsx's plainPage). */
const plainRoutes = new Set(["home", "course", "legal"]);

/**
 * The modules whose chunks a server-rendered page needs at once besides the entry, for the head's
 * modulepreload links: its route's, its language's public texts, and for a page built with antd,
 * antd's providers and the rest of the texts (which would otherwise load one after the other).
 */
export function pageModules(routeName: string | null, lang: Lang): string[] {
  const texts = `src/locales/${lang}/public.ts`;
  const route = routeName ? routeModules[routeName] : undefined;
  if (!route || !routeName) return [texts];
  if (plainRoutes.has(routeName)) return [route, texts];
  return [route, texts, "src/components/antd-root.tsx", `src/locales/${lang}/index.ts`];
}

/** Every language's texts, bundled: the renderer answers in any of them. */
const catalogues = import.meta.glob<Texts>("./locales/*/index.ts", { eager: true, import: "default" });
initI18n(
  "fr",
  Object.fromEntries(Object.entries(catalogues).map(([file, texts]) => [file.split("/")[2], texts])),
);
const handler = createStaticHandler(appRouteTree);
/**
 * Whether the page's `useQuery` left this query enabled. No observer subscribes during a server
 * render, so TanStack's own `isDisabled()` cannot tell: the options it was built with can.
 */
function isEnabled(query: Query): boolean {
  const enabled = (query.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return typeof enabled === "function" ? enabled(query) : enabled !== false;
}

/** Each pass renders, then fetches the queries it left pending; pages need one or two. */
const MAX_PASSES = 4;

/**
 * Renders `url` (path and query). `transport` answers the API calls the page makes; `status`
 * is the HTTP status the server decided (404 for a page or course that does not exist).
 * One render at a time: the API transport and the UI language are process-wide.
 */
export async function render(url: string, transport: ApiTransport, status: number): Promise<RenderedPage> {
  setApiTransport(transport);
  const lang = langFromPath(url);
  // A page the server found missing (an unknown course too) shows the router's not-found page.
  const target = status === 404 ? localizePath("/404", lang) : url;
  const context = await handler.query(new Request(new URL(target, "http://parlons.invalid")));
  if (context instanceof Response) throw new Error(`the route of ${url} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });

  let html = "";
  let cache = createCache();
  const head: PageHead = {};
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    cache = createCache();
    setLanguage(lang);
    collectPageHead(head);
    try {
      html = renderToString(
        <StrictMode>
          <StyleProvider cache={cache}>
            <Providers client={client}>
              <StaticRouterProvider router={router} context={context} hydrate={false} />
            </Providers>
          </StyleProvider>
        </StrictMode>,
      );
    } finally {
      collectPageHead(null);
    }
    const pending = client.getQueryCache().findAll({
      // a disabled query (its input is not known yet, e.g. a course's lessons before the course)
      // waits for the next pass, as in the browser
      predicate: (q) => q.state.status === "pending" && q.state.fetchStatus === "idle" && isEnabled(q),
    });
    if (pending.length === 0) break;
    await Promise.all(pending.map((q) => q.fetch().catch(() => undefined)));
  }

  // React writes the preloads it finds (the logo) first in the markup: they belong in the head
  const preloads = /^(?:<link [^>]*\/>)+/.exec(html)?.[0] ?? "";
  const data: ServerRender = { status, queries: dehydrate(client) };
  return {
    lang,
    html: html.slice(preloads.length),
    styles: preloads + extractStyle(cache),
    head: { title: head.title ?? "Parlons", description: head.description ?? "" },
    data: serverRenderJson(data),
  };
}
