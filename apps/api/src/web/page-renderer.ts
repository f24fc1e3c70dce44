import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { DEFAULT_LANG, LANGS, type Lang, localizePath, manifestPath, stripLang } from "@parlons/contract";

/** Open Graph's locale of a language: `fr_FR`, `en_US`, `es_ES`… */
const OG_REGIONS: Partial<Record<Lang, string>> = { en: "US" };
const ogLocale = (lang: Lang) => `${lang}_${OG_REGIONS[lang] ?? lang.toUpperCase()}`;

import type { FastifyInstance } from "fastify";
import { BOOT_SCRIPT } from "./boot-script";

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
  pageModules(routeName: string | null, lang: Lang): string[];
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

/** Distinct pages kept (unknown courses' 404 pages make the set open-ended); the oldest goes first. */
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
  let entryScript: string | null = null;
  /** The chunks the entry imports (index.html's modulepreload links), started with it by the boot script. */
  let entryImports: string[] = [];
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

  /**
   * A stylesheet of the build, inlined: the first paint waits for no stylesheet request (the
   * few KB the public pages need weigh less than a round trip on a phone). `data-href` names the
   * file, which the browser may still load later with its chunk; the rules are the same.
   */
  const inlined = new Map<string, string>();
  function inlineCss(file: string): string {
    let style = inlined.get(file);
    if (style === undefined) {
      const css = readFileSync(path.join(opts.dist, file), "utf8").replaceAll("</", "<\\/");
      style = `<style data-href="/${file}">${css}</style>`;
      inlined.set(file, style);
    }
    return style;
  }

  /**
   * The chunks a page needs at once besides the entry (its route's, its language's texts, antd's
   * when the page uses it): their CSS, inlined (so that the first paint is styled), and their
   * scripts, which the boot script preloads after that paint.
   */
  function chunkFiles(sources: string[]): { styles: string; scripts: string[] } {
    const files = manifest ?? {};
    const css = new Set<string>();
    const scripts = new Set<string>();
    const visit = (key: string) => {
      const chunk = files[key];
      if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
      scripts.add(chunk.file);
      for (const file of chunk.css ?? []) css.add(file);
      for (const next of chunk.imports ?? []) visit(next);
    };
    for (const source of sources) visit(source);
    return { styles: [...css].map(inlineCss).join(""), scripts: [...scripts].map((file) => `/${file}`) };
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
            ...LANGS.map((l) => `<link rel="alternate" hreflang="${l}" href="${escapeHtml(url(l))}">`),
            `<link rel="alternate" hreflang="x-default" href="${escapeHtml(url(DEFAULT_LANG))}">`,
          ]
        : [`<meta name="robots" content="noindex">`]),
      `<meta property="og:type" content="website">`,
      `<meta property="og:site_name" content="Parlons">`,
      `<meta property="og:title" content="${title}">`,
      `<meta property="og:description" content="${description}">`,
      `<meta property="og:url" content="${escapeHtml(url(lang))}">`,
      `<meta property="og:locale" content="${ogLocale(lang)}">`,
      ...LANGS.filter((l) => l !== lang).map(
        (l) => `<meta property="og:locale:alternate" content="${ogLocale(l)}">`,
      ),
    ].join("");
  }

  async function render(url: string, routeName: string | null, status: number): Promise<CacheEntry> {
    entry ??= import(pathToFileURL(entryFile).href) as Promise<ServerEntry>;
    const { render: renderPage, pageModules } = await entry;
    if (template === null) {
      // the entry is started by the boot script, after the first paint
      const shell = readFileSync(path.join(opts.dist, "index.html"), "utf8");
      entryScript =
        /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/.exec(shell)?.[1] ?? null;
      entryImports = [...shell.matchAll(/<link rel="modulepreload"(?: crossorigin)? href="([^"]+)">/g)].map(
        (m) => m[1] ?? "",
      );
      template = shell
        .replace(/\s*<script type="module"(?: crossorigin)? src="[^"]+"><\/script>/, "")
        .replace(/\s*<link rel="modulepreload"(?: crossorigin)? href="[^"]+">/g, "")
        .replace(/<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g, (_, file: string) =>
          inlineCss(file),
        );
    }
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
    const chunks = chunkFiles(pageModules(routeName, rendered.lang));
    const modules = [...new Set([...entryImports, ...chunks.scripts])];
    const boot = JSON.stringify({ entry: entryScript, modules }).replaceAll("</", "<\\/");
    const html = template
      .replace(/<html lang="[^"]*">/, `<html lang="${rendered.lang}">`)
      // the page's own language's manifest: installed from /es, the app is named and starts in Spanish
      .replace(
        /<link rel="manifest" href="[^"]*">/,
        `<link rel="manifest" href="${manifestPath(rendered.lang)}">`,
      )
      .replace(/<title>[\s\S]*?<\/title>/, "")
      .replace(/<meta\s+name="description"[\s\S]*?\/?>/, "")
      .replace(
        "</head>",
        // a function, so that a `$` in the inlined styles is not read as a replacement pattern
        () =>
          `${headTags(pathname, rendered.lang, rendered.head, status)}${chunks.styles}${rendered.styles}</head>`,
      )
      .replace(
        '<div id="root"></div>',
        () =>
          `<div id="root">${rendered.html}</div><script type="application/json" id="ssr-data">${rendered.data}</script>` +
          `<script type="application/json" id="boot">${boot}</script><script>${BOOT_SCRIPT}</script>`,
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

  const stats = { hits: 0, misses: 0 };
  /**
   * The page at `url` (path and query, as web-routes' renderedPageUrl spells it), rendered, or
   * from the cache when its data did not change.
   */
  async function page(url: string, routeName: string | null, status: number): Promise<RenderedHtml> {
    const key = `${status} ${url}`;
    const cached = cache.get(key);
    if (cached && (await fresh(cached))) {
      stats.hits += 1;
      return cached.page;
    }
    const run = queue.then(async () => {
      // a request queued behind the same page's render takes that render
      const latest = cache.get(key);
      if (latest && latest !== cached && (await fresh(latest))) {
        stats.hits += 1;
        return latest.page;
      }
      stats.misses += 1;
      const next = await render(url, routeName, status);
      cache.delete(key);
      cache.set(key, next);
      if (cache.size > MAX_PAGES) cache.delete(cache.keys().next().value as string);
      return next.page;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  return { available, page, stats };
}
