import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { LOCALES, langPrefix } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, buildTestApp, PASSWORD, type TestContext } from "./helpers/build";
import { courseInput, courseWithLessons } from "./helpers/learning";

/** Every language's URL prefix, the default's ("") first. */
const PREFIXES = LOCALES.map(langPrefix);

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

  it("answers 404 for a lessons or lesson page whose course or lesson does not exist, in every language", async () => {
    const admin = await t.adminToken();
    const { course, free, paid } = await courseWithLessons(t, admin);
    const status = async (url: string) => (await t.request({ method: "GET", url })).statusCode;
    for (const prefix of PREFIXES) {
      expect(await status(`${prefix}/courses/${course.id}/lessons`)).toBe(200);
      expect(await status(`${prefix}/courses/${course.id}/lessons/${free.id}`)).toBe(200);
      expect(await status(`${prefix}/courses/${course.slug}/lessons/${free.id}`)).toBe(200);
      // a premium lesson exists (the page offers the upgrade): not a 404
      expect(await status(`${prefix}/courses/${course.id}/lessons/${paid.id}`)).toBe(200);
      expect(await status(`${prefix}/courses/no-such-course/lessons`)).toBe(404);
      expect(await status(`${prefix}/courses/no-such-course/lessons/${free.id}`)).toBe(404);
      expect(
        await status(`${prefix}/courses/${course.id}/lessons/019a0000-0000-7000-8000-000000000000`),
      ).toBe(404);
      expect(await status(`${prefix}/events/019a0000-0000-7000-8000-000000000000`)).toBe(404);
      // not an event id at all: the not-found page too, not a page saying "bad request"
      expect(await status(`${prefix}/events/123`)).toBe(404);
    }
  });

  it("answers 200 for the legal pages and 404 for an unknown one, in every language", async () => {
    for (const prefix of PREFIXES) {
      for (const page of ["legal-notice", "privacy", "terms", "cookies"]) {
        expect((await t.request({ method: "GET", url: `${prefix}/legal/${page}` })).statusCode).toBe(200);
      }
      expect((await t.request({ method: "GET", url: `${prefix}/legal/nope` })).statusCode).toBe(404);
    }
  });

  it("leads a first visit to the browser's language, and a chosen one to the cookie's", async () => {
    const home = (headers: Record<string, string>) => t.request({ method: "GET", url: "/", headers });
    const english = await home({ "accept-language": "en-GB,en;q=0.9" });
    expect(english.statusCode).toBe(302);
    expect(english.headers.location).toBe("/en");
    expect(String(english.headers.vary)).toMatch(/accept-language/i);
    expect((await home({ "accept-language": "es-ES,es;q=0.9,en;q=0.5" })).headers.location).toBe("/es");
    const french = await home({ "accept-language": "fr-FR,fr;q=0.9,en;q=0.8" });
    expect(french.statusCode).toBe(200);
    expect(String(french.headers.vary)).toMatch(/accept-language/i);
    expect(String(french.headers.vary)).toMatch(/accept-encoding/i);
    expect((await home({ "accept-language": "de-DE" })).statusCode).toBe(200);
    expect((await home({})).statusCode).toBe(200);
    // the language chosen before wins over the browser's
    expect((await home({ "accept-language": "en", cookie: "i18n_redirected=fr" })).statusCode).toBe(200);
    expect((await home({ "accept-language": "fr", cookie: "i18n_redirected=es" })).headers.location).toBe(
      "/es",
    );
  });

  it("keeps unknown API routes as JSON 404s", async () => {
    const res = await t.request({ method: "GET", url: "/api/v1/nimporte-quoi" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("staff pages", () => {
  /** Signs in: the access token and the page cookie (name=value) of that session. */
  async function signIn(email: string, password: string): Promise<{ token: string; cookie: string }> {
    const res = await t.request({
      method: "POST",
      url: "/api/v1/user/authenticate",
      payload: { username: email, password },
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === "parlons.session");
    expect(cookie).toMatchObject({ httpOnly: true, path: "/", sameSite: "Lax" });
    return { token: res.json().data.accessToken, cookie: `parlons.session=${cookie?.value}` };
  }
  const page = (url: string, cookie?: string) =>
    t.request({ method: "GET", url, headers: cookie ? { cookie } : {} });

  it("answer 403 to a signed-in learner, 200 to staff with the permission and to a signed-out visitor", async () => {
    const learner = await t.createUser();
    const asLearner = (await signIn(learner.email, PASSWORD)).cookie;
    for (const url of ["/setting", "/en/User", "/es/mail/send", "/User/edit/3", "/analytics"]) {
      const res = await page(url, asLearner);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).toContain('<div id="root">');
    }
    // the learner's own pages are theirs
    expect((await page("/dashboard", asLearner)).statusCode).toBe(200);
    // staff with the permission
    const asAdmin = (await signIn(ADMIN.email, ADMIN.password)).cookie;
    expect((await page("/setting", asAdmin)).statusCode).toBe(200);
    expect((await page("/en/User", asAdmin)).statusCode).toBe(200);
    // signed out (the app sends them to the login page), or a cookie this server did not sign
    expect((await page("/setting")).statusCode).toBe(200);
    const forged = asLearner.replace(/\.[^.]+$/, ".AAAA");
    expect((await page("/setting", forged)).statusCode).toBe(200);
  });

  it("logout clears the cookie, and the cookie of an ended session counts as signed out", async () => {
    const learner = await t.createUser();
    const { token, cookie } = await signIn(learner.email, PASSWORD);
    expect((await page("/setting", cookie)).statusCode).toBe(403);
    const out = await t.request({ method: "GET", url: "/api/v1/auth/logout", token });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === "parlons.session")?.value).toBe("");
    expect((await page("/setting", cookie)).statusCode).toBe(200);
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
      "/es/dashboard",
      "/User",
      "/courses/*/lessons",
      "/setting",
      "/billing",
    ]) {
      expect(lines).toContain(`Disallow: ${p}`);
    }
    expect(lines).not.toContain("Disallow: /courses");
    // each rule is a prefix (with * for any segment): none may match a public page
    const rules = lines
      .filter((line) => line.startsWith("Disallow: "))
      .map((line) => new RegExp(`^${line.slice(10).replace(/[.?+]/g, "\\$&").replace(/\*/g, "[^/]*")}`));
    expect(rules.length).toBeGreaterThan(20);
    for (const page of ["/", "/courses", "/courses/anglais", "/contact", "/pricing", "/faqs", "/events"]) {
      for (const lang of ["", "/en", "/es"]) {
        const path = `${lang}${page === "/" && lang ? "" : page}`;
        expect(rules.filter((rule) => rule.test(path)).map(String), path).toEqual([]);
      }
    }
    expect(rules.some((rule) => rule.test("/c/ABCD-EFGH"))).toBe(true);
    expect(rules.some((rule) => rule.test("/courses/x/lessons"))).toBe(true);
    expect(lines).toContain("Sitemap: http://parlons.test/sitemap.xml");
  });

  it("sitemap.xml lists the public pages in every language and every active course, not the others", async () => {
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
      for (const prefix of PREFIXES.slice(1)) expect(locs).toContain(`http://parlons.test${prefix}${page}`);
    }
    for (const prefix of PREFIXES)
      expect(locs).toContain(`http://parlons.test${prefix}/courses/${active.id}`);
    expect(res.body).toContain(
      `<xhtml:link rel="alternate" hreflang="es" href="http://parlons.test/es/courses/${active.id}"/>`,
    );
    expect(res.body).not.toContain(hidden.id);
    expect(res.body).toContain(
      `<xhtml:link rel="alternate" hreflang="x-default" href="http://parlons.test/courses/${active.id}"/>`,
    );
  });
});
