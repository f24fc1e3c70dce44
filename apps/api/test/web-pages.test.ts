import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "./helpers/build";
import { courseInput } from "./helpers/learning";

const SCRIPT = `console.log(${JSON.stringify("Parlons ".repeat(200))});`;
const SHELL = `<!doctype html><html><head><title>Parlons</title></head><body><div id="root"></div>${"<!-- padding -->".repeat(50)}</body></html>`;

/** A built web app as `npm run build` leaves it: each text file next to its .br and .gz. */
function fakeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), "parlons-web-"));
  mkdirSync(path.join(dist, "assets"));
  const write = (file: string, text: string) => {
    writeFileSync(path.join(dist, file), text);
    writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(dist, `${file}.gz`), gzipSync(text));
  };
  write("index.html", SHELL);
  write("assets/index-abc123.js", SCRIPT);
  writeFileSync(path.join(dist, "favicon.svg"), "<svg/>");
  return dist;
}

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ env: { WEB_DIST: fakeDist() } });
});
afterAll(() => t.close());

describe("precompressed files", () => {
  it.each([
    ["br", "br, gzip, deflate"],
    ["gzip", "gzip, deflate"],
    [undefined, "identity"],
    [undefined, undefined],
  ])("sends %s for Accept-Encoding: %s, with Vary and the right length", async (encoding, accept) => {
    const res = await t.request({
      method: "GET",
      url: "/assets/index-abc123.js",
      headers: accept ? { "accept-encoding": accept } : {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe(encoding);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(res.headers["content-length"])).toBe(res.rawPayload.length);
    const body =
      encoding === "br"
        ? brotliDecompressSync(res.rawPayload)
        : encoding === "gzip"
          ? gunzipSync(res.rawPayload)
          : res.rawPayload;
    expect(body.toString()).toBe(SCRIPT);
  });

  it("compresses the HTML of pages too, which is revalidated, never cached blindly", async () => {
    const res = await t.request({ method: "GET", url: "/courses", headers: { "accept-encoding": "br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SHELL);
  });
});

describe("page status", () => {
  it.each(["/nimporte-quoi", "/en/nothing/here", "/fr/courses", "/courses/7/lessons/3/more"])(
    "%s answers 404 with the app, which shows the not-found page",
    async (url) => {
      const res = await t.request({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    },
  );

  it.each(["/", "/en", "/courses", "/en/pricing", "/User/edit/3", "/en/courses/more", "/x/index_old"])(
    "%s (a known route) answers 200",
    async (url) => {
      expect((await t.request({ method: "GET", url })).statusCode).toBe(200);
    },
  );

  it("answers 404 for a course page whose course does not exist, 200 for one that does", async () => {
    const admin = await t.adminToken();
    const course = (
      await t.request({ method: "POST", url: "/api/v1/courses", token: admin, payload: courseInput() })
    ).json().data.course as { id: string; slug: string };
    expect((await t.request({ method: "GET", url: `/courses/${course.id}` })).statusCode).toBe(200);
    expect((await t.request({ method: "GET", url: `/en/courses/${course.slug}` })).statusCode).toBe(200);
    expect((await t.request({ method: "GET", url: "/courses/no-such-course" })).statusCode).toBe(404);
    expect(
      (await t.request({ method: "GET", url: "/en/courses/019a0000-0000-7000-8000-000000000000" }))
        .statusCode,
    ).toBe(404);
  });

  it("keeps unknown API routes as JSON 404s", async () => {
    const res = await t.request({ method: "GET", url: "/api/v1/nimporte-quoi" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("robots.txt and sitemap.xml", () => {
  it("robots.txt keeps crawlers out of the API and signed-in pages and points to the sitemap", async () => {
    const res = await t.request({ method: "GET", url: "/robots.txt" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/plain/);
    const lines = res.body.split("\n");
    for (const p of [
      "/api/",
      "/dashboard",
      "/en/dashboard",
      "/User",
      "/courses/*/lessons",
      "/setting",
      "/billing",
    ]) {
      expect(lines).toContain(`Disallow: ${p}`);
    }
    expect(lines).not.toContain("Disallow: /courses");
    expect(lines).toContain("Sitemap: http://parlons.test/sitemap.xml");
  });

  it("sitemap.xml lists the public pages in both languages and every active course, not the others", async () => {
    const admin = await t.adminToken();
    const create = async (over: Record<string, unknown>) =>
      (
        await t.request({ method: "POST", url: "/api/v1/courses", token: admin, payload: courseInput(over) })
      ).json().data.course as { id: string };
    const active = await create({ title_fr: "Italien", title_en: "Italian" });
    const hidden = await create({ title_fr: "Caché", title_en: "Hidden", active: false });
    const res = await t.request({ method: "GET", url: "/sitemap.xml" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/xml/);
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    for (const page of ["", "/courses", "/pricing", "/faqs", "/contact"]) {
      expect(locs).toContain(`http://parlons.test${page || "/"}`);
      expect(locs).toContain(`http://parlons.test/en${page}`);
    }
    expect(locs).toContain(`http://parlons.test/courses/${active.id}`);
    expect(locs).toContain(`http://parlons.test/en/courses/${active.id}`);
    expect(res.body).not.toContain(hidden.id);
    expect(res.body).toContain(
      `<xhtml:link rel="alternate" hreflang="x-default" href="http://parlons.test/courses/${active.id}"/>`,
    );
  });
});
