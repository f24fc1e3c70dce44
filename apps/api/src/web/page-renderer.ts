import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { type Lang, localizePath, stripLang } from "@parlons/contract";
import type { FastifyInstance } from "fastify";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The interface of apps/web/src/entry-server.tsx, as built into dist-server/entry-server.js. */
interface ServerEntry {
  render(
    url: string,
    transport: (url: string, init: RequestInit) => Promise<Response>,
    status: number,
  ): Promise<{
    lang: Lang;
    html: string;
    styles: string;
    head: { title: string; description: string };
    data: string;
  }>;
  routeModules: Record<string, string>;
}

type Manifest = Record<string, { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }>;

/** An API read the page used, and what identified its answer (its ETag, or a hash of its body). */
interface Dependency {
  url: string;
  tag: string;
}

export interface RenderedHtml {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

interface CacheEntry {
  page: RenderedHtml;
  deps: Dependency[];
}

/** Distinct URLs kept (query strings make the set open-ended); the oldest goes first. */
const MAX_PAGES = 500;

const sha1 = (data: string | Buffer) => createHash("sha1").update(data).digest("base64url");
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/**
 * Renders the public pages on the server with the web app's own renderer, reading the API through
 * `inject` (the same in-memory answers and ETags as any visitor). A page is rendered once and kept
 * compressed; before serving it again, the API reads it used are asked again with their ETag:
 * when one changed (a staff edit), the page is rendered anew. Renders run one at a time.
 */
export function createPageRenderer(app: FastifyInstance, opts: { dist: string; publicUrl: string }) {
  const entryFile = path.join(path.dirname(opts.dist), "dist-server", "entry-server.js");
  const manifestFile = path.join(opts.dist, ".vite", "manifest.json");
  const available = existsSync(entryFile) && existsSync(manifestFile);
  const cache = new Map<string, CacheEntry>();
  let entry: Promise<ServerEntry> | null = null;
  let template: string | null = null;
  let manifest: Manifest | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  /** What an API read answers now, and whether that still matches what the page used. */
  async function read(url: string, previous?: string): Promise<{ tag: string; response: Response }> {
    const res = await app.inject({
      method: "GET",
      url,
      headers: {
        accept: "application/json",
        ...(previous?.startsWith('"') ? { "if-none-match": previous } : {}),
      },
    });
    const etag = res.headers.etag;
    const tag =
      res.statusCode === 304 && previous ? previous : typeof etag === "string" ? etag : sha1(res.rawPayload);
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : String(value));
    }
    const body = res.statusCode === 204 || res.statusCode === 304 ? null : res.rawPayload;
    return { tag, response: new Response(body, { status: res.statusCode, headers }) };
  }

  async function fresh(cached: CacheEntry): Promise<boolean> {
    for (const dep of cached.deps) {
      if ((await read(dep.url, dep.tag)).tag !== dep.tag) return false;
    }
    return true;
  }

  /** The `<link>`s of a route's own chunk: its CSS (so that the first paint is styled) and its scripts. */
  function routeLinks(routeName: string, modules: Record<string, string>): string {
    const source = modules[routeName];
    const files = manifest ?? {};
    if (!source || !files[source]) return "";
    const css = new Set<string>();
    const scripts = new Set<string>();
    const visit = (key: string) => {
      const chunk = files[key];
      if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
      scripts.add(chunk.file);
      for (const file of chunk.css ?? []) css.add(file);
      for (const next of chunk.imports ?? []) visit(next);
    };
    visit(source);
    return [
      ...[...css].map((file) => `<link rel="stylesheet" href="/${file}">`),
      ...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ].join("");
  }

  function headTags(
    pathname: string,
    lang: Lang,
    head: { title: string; description: string },
    status: number,
  ) {
    const page = stripLang(pathname);
    const url = (l: Lang) => opts.publicUrl + localizePath(page, l);
    const title = escapeHtml(head.title);
    const description = escapeHtml(head.description);
    return [
      `<title>${title}</title>`,
      `<meta name="description" content="${description}">`,
      ...(status === 200
        ? [
            `<link rel="canonical" href="${escapeHtml(url(lang))}">`,
            `<link rel="alternate" hreflang="fr" href="${escapeHtml(url("fr"))}">`,
            `<link rel="alternate" hreflang="en" href="${escapeHtml(url("en"))}">`,
            `<link rel="alternate" hreflang="x-default" href="${escapeHtml(url("fr"))}">`,
          ]
        : [`<meta name="robots" content="noindex">`]),
      `<meta property="og:type" content="website">`,
      `<meta property="og:site_name" content="Parlons">`,
      `<meta property="og:title" content="${title}">`,
      `<meta property="og:description" content="${description}">`,
      `<meta property="og:url" content="${escapeHtml(url(lang))}">`,
      `<meta property="og:locale" content="${lang === "en" ? "en_US" : "fr_FR"}">`,
      `<meta property="og:locale:alternate" content="${lang === "en" ? "fr_FR" : "en_US"}">`,
    ].join("");
  }

  async function render(url: string, routeName: string | null, status: number): Promise<CacheEntry> {
    entry ??= import(pathToFileURL(entryFile).href) as Promise<ServerEntry>;
    const { render: renderPage, routeModules } = await entry;
    template ??= readFileSync(path.join(opts.dist, "index.html"), "utf8");
    manifest ??= JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    const deps: Dependency[] = [];
    const transport = async (apiUrl: string, init: RequestInit) => {
      if ((init.method ?? "GET") !== "GET") throw new Error(`the server render may only read (${apiUrl})`);
      const { tag, response } = await read(apiUrl);
      deps.push({ url: apiUrl, tag });
      return response;
    };
    const rendered = await renderPage(url, transport, status);
    const pathname = url.split("?")[0] ?? "/";
    const html = template
      .replace(/<html lang="[^"]*">/, `<html lang="${rendered.lang}">`)
      .replace(/<title>[\s\S]*?<\/title>/, "")
      .replace(/<meta\s+name="description"[\s\S]*?\/?>/, "")
      .replace(
        "</head>",
        `${headTags(pathname, rendered.lang, rendered.head, status)}${routeName ? routeLinks(routeName, routeModules) : ""}${rendered.styles}</head>`,
      )
      .replace(
        '<div id="root"></div>',
        `<div id="root">${rendered.html}</div><script type="application/json" id="ssr-data">${rendered.data}</script>`,
      );
    const identity = Buffer.from(html);
    const [br, gz] = await Promise.all([
      brotli(identity, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
      }),
      gzipAsync(identity, { level: 9 }),
    ]);
    return { page: { etag: `"${sha1(identity)}"`, identity, br, gzip: gz }, deps };
  }

  /** The page at `url` (path and query), rendered or from the cache when its data did not change. */
  async function page(url: string, routeName: string | null, status: number): Promise<RenderedHtml> {
    const key = `${status} ${url}`;
    const cached = cache.get(key);
    if (cached && (await fresh(cached))) return cached.page;
    const run = queue.then(async () => {
      // a request queued behind the same page's render takes that render
      const latest = cache.get(key);
      if (latest && latest !== cached && (await fresh(latest))) return latest.page;
      const next = await render(url, routeName, status);
      cache.delete(key);
      cache.set(key, next);
      if (cache.size > MAX_PAGES) cache.delete(cache.keys().next().value as string);
      return next.page;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  return { available, page };
}

export type PageRenderer = ReturnType<typeof createPageRenderer>;
