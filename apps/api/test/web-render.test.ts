import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { LOCALES, langPrefix, manifestPath } from "@parlons/contract";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "./helpers/build";
import { courseInput } from "./helpers/learning";

/** The real web build: the server renderer is the web app's own code. Built here when missing. */
const webDir = path.resolve(import.meta.dirname, "../../web");
const dist = path.join(webDir, "dist");

function ensureWebBuild() {
  if (
    existsSync(path.join(webDir, "dist-server", "entry-server.js")) &&
    existsSync(path.join(dist, "index.html"))
  )
    return;
  // in production mode: under vitest NODE_ENV is "test", and Vite would build React's and antd's
  // development code (15 % more JavaScript, measured by the weight tests below)
  const build = spawnSync("npm", ["run", "build"], {
    cwd: webDir,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (build.status !== 0) throw new Error("npm run build (web) failed");
}

let t: TestContext;
let admin: string;
let course: { id: string; slug: string };

beforeAll(async () => {
  ensureWebBuild();
  t = await buildTestApp({ env: { WEB_DIST: dist } });
  admin = await t.adminToken();
  course = (
    await t.request({
      method: "POST",
      url: "/api/v1/courses",
      token: admin,
      payload: courseInput({
        title_fr: "Portugais du marché",
        title_en: "Market Portuguese",
        description_fr: "Acheter des fruits à Lisbonne",
        description_en: "Buying fruit in Lisbon",
        popular: true,
      }),
    })
  ).json().data.course;
}, 600_000);
afterAll(() => t.close());

/** Rendering is CPU work (one to two React renders per page): budget for a loaded machine, not a speed check. */
const RENDERS = 180_000;

const page = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url, headers });

/**
 * Every script is a file of the app or inert JSON, but for one inline script (the boot script,
 * which starts the app after the first paint) that the page's CSP allows by its hash.
 */
function expectOnlyBootScriptInline(html: string, csp: unknown) {
  const inline = [...html.matchAll(/<script(\b[^>]*)>([\s\S]*?)<\/script>/g)].filter(
    ([, attrs]) => !/\bsrc="|type="application\/json"/.test(attrs ?? ""),
  );
  expect(inline).toHaveLength(1);
  const hash = createHash("sha256")
    .update(inline[0]?.[2] ?? "")
    .digest("base64");
  expect(String(csp)).toContain(`script-src 'self' 'sha256-${hash}'`);
}

function ssrData(html: string) {
  const json = html.match(/<script type="application\/json" id="ssr-data">([\s\S]*?)<\/script>/)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json ?? "null") as { status: number; queries: { queries: { queryKey: unknown[] }[] } };
}

describe("server-rendered public pages", () => {
  it(
    "home, catalogue and course page carry their content, in French and English",
    async () => {
      for (const [url, text] of [
        ["/", "Portugais du marché"],
        ["/en", "Market Portuguese"],
        ["/courses", "Portugais du marché"],
        ["/en/courses", "Market Portuguese"],
        [`/courses/${course.id}`, "Acheter des fruits à Lisbonne"],
        [`/en/courses/${course.id}`, "Buying fruit in Lisbon"],
      ] as const) {
        const res = await page(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers["content-type"]).toMatch(/text\/html/);
        expect(res.headers["cache-control"]).toBe("no-cache");
        const root = res.body.slice(res.body.indexOf('<div id="root">'));
        expect(root, url).toContain(text);
        expect(root, url).toMatch(/^<div id="root"><div /);
        expect(res.body).toContain(`<html lang="${url.startsWith("/en") ? "en" : "fr"}">`);
        expectOnlyBootScriptInline(res.body, res.headers["content-security-policy"]);
        expect(ssrData(res.body).status).toBe(200);
      }
    },
    RENDERS,
  );

  it(
    "pricing, FAQ and contact are rendered too",
    async () => {
      for (const url of ["/pricing", "/en/faqs", "/contact"]) {
        const res = await page(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toMatch(/<div id="root"><.+/);
      }
    },
    RENDERS,
  );

  it(
    "every header links to the plans, and the home page names every language the site speaks",
    async () => {
      const said = {
        fr: /français, en anglais et en espagnol/,
        en: /French, English and Spanish/,
        es: /español/,
      };
      for (const lang of LOCALES) {
        const prefix = langPrefix(lang);
        for (const url of [prefix || "/", `${prefix}/courses`, `${prefix}/faqs`]) {
          const res = await page(url);
          const link = res.body.match(/<a [^>]*data-testid="nav-pricing"[^>]*>/)?.[0] ?? "";
          expect(link, url).toContain(`href="${prefix}/pricing"`);
        }
        expect((await page(prefix || "/")).body).toMatch(said[lang]);
      }
    },
    RENDERS,
  );

  it("writes the course page's meta tags: title, description, canonical, hreflang, Open Graph", async () => {
    const res = await page(`/en/courses/${course.id}`);
    const head = res.body.slice(0, res.body.indexOf("</head>"));
    const url = `http://parlons.test/en/courses/${course.id}`;
    expect(head).toContain("<title>Market Portuguese · Parlons</title>");
    expect(head).toContain('<meta name="description" content="Buying fruit in Lisbon">');
    expect(head).toContain(`<link rel="canonical" href="${url}">`);
    expect(head).toContain(`<link rel="alternate" hreflang="en" href="${url}">`);
    expect(head).toContain(
      `<link rel="alternate" hreflang="fr" href="http://parlons.test/courses/${course.id}">`,
    );
    expect(head).toContain(
      `<link rel="alternate" hreflang="x-default" href="http://parlons.test/courses/${course.id}">`,
    );
    expect(head).toContain('<meta property="og:title" content="Market Portuguese · Parlons">');
    expect(head).toContain(`<meta property="og:url" content="${url}">`);
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(head.match(/name="description"/g)).toHaveLength(1);
    // its stylesheets are inlined in the head, so that the first paint is styled without waiting
    // for a stylesheet request; drawn without antd, the page carries none of antd's runtime styles
    expect(head).toMatch(/<style data-href="\/assets\/courses-pages-[\w-]+\.css">\.[\w-]/);
    expect(head).toMatch(/<style data-href="\/assets\/index-[\w-]+\.css">/);
    expect(head).not.toMatch(/<link rel="stylesheet"/);
    expect(head).not.toMatch(/<style(?! data-href)[^>]*>[^<]*\.ant-/);
  });

  it(
    "links the manifest of the page's language, which names the app and starts it in that language",
    async () => {
      const names = new Set<string>();
      for (const lang of LOCALES) {
        const home = langPrefix(lang) || "/";
        const res = await page(home);
        const head = res.body.slice(0, res.body.indexOf("</head>"));
        const links = head.match(/<link rel="manifest" href="([^"]+)">/g) ?? [];
        expect(links, lang).toEqual([`<link rel="manifest" href="${manifestPath(lang)}">`]);
        const file = await page(manifestPath(lang));
        expect(file.statusCode, lang).toBe(200);
        expect(file.headers["content-type"], lang).toContain("application/manifest+json");
        const manifest = file.json() as Record<string, string>;
        expect(manifest, lang).toMatchObject({ id: "/", lang, start_url: home, short_name: "Parlons" });
        names.add(manifest.name ?? "").add(manifest.description ?? "");
      }
      // each language's name and description are its own
      expect(names.size).toBe(LOCALES.length * 2);
    },
    RENDERS,
  );

  it("hands the API data it used to the browser", async () => {
    const res = await page(`/courses/${course.id}`);
    const keys = ssrData(res.body).queries.queries.map((q) => JSON.stringify(q.queryKey));
    expect(keys).toContain(JSON.stringify(["courses", "single", course.id]));
  });

  it("asks the API only for what the page can name: a course's lessons once the course is known", async () => {
    const asked: string[] = [];
    const inject = t.app.inject.bind(t.app);
    // records the API reads of the renderer (it reads through `app.inject`)
    t.app.inject = ((opts: InjectOptions | string) => {
      if (typeof opts === "object" && opts && "url" in opts) asked.push(String(opts.url));
      return inject(opts as never);
    }) as typeof t.app.inject;
    try {
      // rendered now, or checked against the reads it made (the course's lessons among them)
      const res = await page(`/courses/${course.slug}`);
      expect(res.statusCode).toBe(200);
    } finally {
      t.app.inject = inject as typeof t.app.inject;
    }
    expect(asked.some((u) => u.includes(`/v1/courses/${course.id}/lessons`))).toBe(true);
    expect(asked.filter((u) => /undefined|\/courses\/\/lessons/.test(u))).toEqual([]);
  });

  it(
    "shows a staff edit to the next visitor",
    async () => {
      const before = await page("/en/courses");
      expect(before.body).toContain("Market Portuguese");
      const edit = await t.request({
        method: "PUT",
        url: `/api/v1/courses/${course.id}`,
        token: admin,
        payload: {
          ...courseInput({
            title_fr: "Portugais du marché",
            description_fr: "Acheter des fruits à Lisbonne",
          }),
          title_en: "Harbour Portuguese",
          description_en: "Buying fruit in Lisbon",
          popular: true,
        },
      });
      expect(edit.statusCode).toBe(200);
      for (const url of ["/en/courses", "/en", `/en/courses/${course.id}`]) {
        const after = await page(url);
        expect(after.body, url).toContain("Harbour Portuguese");
        expect(after.body, url).not.toContain("Market Portuguese");
      }
    },
    RENDERS,
  );

  it("sends the same page compressed: brotli, gzip or none, with Vary and an ETag", async () => {
    const plain = await page("/en/pricing", { "accept-encoding": "identity" });
    const br = await page("/en/pricing", { "accept-encoding": "gzip, deflate, br" });
    const gz = await page("/en/pricing", { "accept-encoding": "gzip" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    for (const res of [plain, br, gz]) {
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(Number(res.headers["content-length"])).toBe(res.rawPayload.length);
    }
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const etag = String(plain.headers.etag);
    expect((await page("/en/pricing", { "if-none-match": etag })).statusCode).toBe(304);
  });
});

/** Pages rendered so far (misses of the page cache), read from the app's metrics. */
async function renders(): Promise<number> {
  const text = await t.app.metrics.registry.getSingleMetricAsString("parlons_cache_requests_total");
  const line = text.split("\n").find((l) => l.includes('cache="page"') && l.includes('result="miss"'));
  return Number(line?.split(" ").at(-1) ?? 0);
}

describe("the page cache", () => {
  it(
    "renders a page once whatever query string or spelling of its path it is asked with",
    async () => {
      expect((await page("/en/pricing")).statusCode).toBe(200);
      const before = await renders();
      for (let i = 0; i < 40; i++) {
        for (const url of [`/en/pricing?utm_source=${i}`, `/en/PRICING/?q=${i}&checkout=x${i}`]) {
          const res = await page(url);
          expect(res.statusCode, url).toBe(200);
          // what the visitor sent is not kept in the page the next one gets
          expect(res.body, url).not.toMatch(/utm_source|q=\d/);
        }
      }
      expect(await renders()).toBe(before);

      // the one parameter the pricing page reads is a page of its own, rendered once
      const cancelled = await page("/en/pricing?checkout=cancelled");
      expect(cancelled.body).toContain('data-testid="checkout-cancelled"');
      expect((await page("/en/pricing?x=1&checkout=cancelled")).body).toBe(cancelled.body);
      expect((await page("/en/pricing")).body).not.toContain('data-testid="checkout-cancelled"');
      expect(await renders()).toBe(before + 1);
    },
    RENDERS,
  );

  it(
    "renders the not-found page once per language, whatever the unknown path",
    async () => {
      expect((await page("/en/no-such-page-0")).statusCode).toBe(404);
      const before = await renders();
      for (let i = 1; i <= 30; i++) {
        const res = await page(`/en/no-such-page-${i}?n=${i}`);
        expect(res.statusCode).toBe(404);
        expect(res.body).toContain('<html lang="en">');
      }
      expect(await renders()).toBe(before);
    },
    RENDERS,
  );
});

describe("not-found pages", () => {
  it.each([
    ["/nimporte-quoi", "fr", "Cette page est introuvable"],
    ["/en/nothing-here", "en", "This page could not be found"],
    ["/courses/no-such-course", "fr", "Cette page est introuvable"],
    ["/en/courses/no-such-course", "en", "This page could not be found"],
  ])(
    "%s answers 404 with the not-found page in %s",
    async (url, lang, title) => {
      const res = await page(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain(`<html lang="${lang}">`);
      expect(res.body.slice(res.body.indexOf('<div id="root">'))).toContain(title);
      expect(res.body).toContain('<meta name="robots" content="noindex">');
      expect(ssrData(res.body).status).toBe(404);
    },
    RENDERS,
  );
});

/** Issue 9's budget for the public pages: what a phone downloads and parses before the page works. */
const FIRST_ROUTE_BUDGET_GZIP = 150 * 1024;

/**
 * The JavaScript files a page starts with: module scripts and modulepreloads in its HTML, and
 * the entry and chunks its boot script asks for once the page has painted.
 */
function firstRouteScripts(html: string): string[] {
  const files = new Set<string>();
  const boot = /<script type="application\/json" id="boot">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (boot) {
    const { entry, modules } = JSON.parse(boot) as { entry: string; modules: string[] };
    for (const file of [entry, ...modules]) files.add(file);
  }
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) files.add(m[1] ?? "");
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href) files.add(href);
  }
  return [...files];
}

describe("weight of the public pages", () => {
  it(
    "home and course page ask for at most 150 KB of JavaScript (gzip), in every language, antd not among it",
    async () => {
      const prefixes = LOCALES.map(langPrefix);
      for (const url of prefixes.flatMap((p) => [p || "/", `${p}/courses/${course.id}`])) {
        const res = await page(url);
        expect(res.statusCode).toBe(200);
        const scripts = firstRouteScripts(res.body);
        // the entry, the route's chunk and its language's texts at least
        expect(scripts.length, url).toBeGreaterThanOrEqual(3);
        let gzip = 0;
        for (const src of scripts) {
          expect(src, url).toMatch(/^\/assets\/[\w.-]+\.js$/);
          const code = readFileSync(path.join(dist, src));
          expect(code.toString(), `${url} ${src}`).not.toMatch(/\bant-btn\b|ConfigProvider/);
          gzip += gzipSync(code, { level: 9 }).length;
        }
        expect(gzip, `${url}: ${scripts.join(" ")}`).toBeLessThanOrEqual(FIRST_ROUTE_BUDGET_GZIP);
      }
    },
    RENDERS,
  );

  it("a page built with antd links antd's chunk and all its texts up front, not one after the other", async () => {
    const scripts = firstRouteScripts((await page("/pricing")).body).join(" ");
    expect(scripts).toMatch(/\/assets\/antd-root-[\w-]+\.js/);
    expect(scripts).toMatch(/\/assets\/public-[\w-]+\.js/);
  });
});

/**
 * The JavaScript a signed-in page cannot render without: the entry, the app layout, antd's root
 * and the page's own chunk, with every chunk they import statically (the build's manifest).
 * Measured at issue 26's start: 414–491 KB gzip in 71–92 files. Each page has its ceiling, a few
 * KB above what it weighs now (docs/performance.md, "Signed-in pages"), so that a cut that lands
 * stays cut; lower them with each change, down to the issue's target (170 KB, 25 requests).
 */
const SIGNED_IN_BUDGETS: Record<string, { kb: number; files: number; antd: boolean }> = {
  // the npm code in named groups (apps/web/build/chunk-groups.ts): 68–91 files → 24–47;
  // then the shell drawn without antd (its own components no longer in antd's group: the pages
  // built with antd share them in more, smaller files), antd's providers with those pages;
  // then the npm code four or more learner pages share in one file: 34–63 files → 24–47, and
  // 1–16 KB less each
  "dashboard-page": { kb: 390, files: 41, antd: true },
  "lesson-page": { kb: 390, files: 49, antd: true },
  "lessons-page": { kb: 330, files: 26, antd: true },
  "review-page": { kb: 348, files: 37, antd: true },
  "billing-page": { kb: 337, files: 28, antd: true },
  "profile-page": { kb: 359, files: 27, antd: true },
  // the course page, plain markup, inside the signed-in shell: no antd at all (its staff preview
  // banner, plain too, is two small files)
  "course-page": { kb: 164, files: 22, antd: false },
};

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
}

describe("weight of the signed-in pages", () => {
  it("each signed-in page asks for no more JavaScript (gzip) and files before its content than its ceiling", () => {
    const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8")) as Record<
      string,
      ManifestChunk
    >;
    const key = (name: string) => {
      const found = Object.keys(manifest).find(
        (k) => k.endsWith(`/${name}.tsx`) || manifest[k]?.file.startsWith(`assets/${name}-`),
      );
      expect(found, name).toBeDefined();
      return found ?? "";
    };
    const shell = ["index.html", key("app-layout")];
    for (const [name, budget] of Object.entries(SIGNED_IN_BUDGETS)) {
      const seen = new Set<string>();
      const todo = [...shell, ...(budget.antd ? [key("antd-root")] : []), key(name)];
      while (todo.length > 0) {
        const k = todo.pop() ?? "";
        if (seen.has(k)) continue;
        seen.add(k);
        todo.push(...(manifest[k]?.imports ?? []));
      }
      let gzip = 0;
      for (const k of seen)
        gzip += gzipSync(readFileSync(path.join(dist, manifest[k]?.file ?? "")), { level: 9 }).length;
      expect(seen.size, name).toBeLessThanOrEqual(budget.files);
      expect(gzip, name).toBeLessThanOrEqual(budget.kb * 1024);
      // the staff screens are not among them, nor antd for a page drawn without it
      for (const k of seen) {
        expect(k, name).not.toMatch(/features\/(users|audit|analytics|mail|configs|plans)\//);
        if (!budget.antd) expect(manifest[k]?.file, name).not.toMatch(/antd-shell/);
      }
    }
  });
});
