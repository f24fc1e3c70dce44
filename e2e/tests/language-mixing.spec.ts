import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { otherLanguageTexts, settledText } from "../support/languages";
import { type Account, signIn } from "../support/session";

/**
 * No mixed languages (issue 14): every page, read in one language, shows no text of another
 * language's catalogue. A catalogue text counts when it differs from every text of the page's own
 * catalogue and is long enough to mean something (12 characters or more, placeholders cut out).
 */
/**
 * The seeded demo course and its first lesson, found by slug: the catalogue's first course is
 * whichever an earlier spec made last (perhaps one without lessons).
 */
async function ids(request: APIRequestContext) {
  const single = await request.get("/api/v1/courses/single/anglais-pour-debutants");
  expect(single.ok(), await single.text()).toBe(true);
  const courseId = ((await single.json()) as { data: { course: { id: string } } }).data.course.id;
  const lessons = (await (await request.get(`/api/v1/courses/${courseId}/lessons`)).json()) as {
    data: { lessons: { id: string }[] };
  };
  return { courseId, lessonId: lessons.data.lessons[0]?.id ?? "" };
}

/** Every page, by who can see it (the paths are the unprefixed, French ones). */
function pages({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const course = `/courses/${courseId}`;
  const words = (list: string) => list.split(/\s+/).filter(Boolean);
  return {
    visitor: [
      ...words("/ /courses /pricing /faqs /contact /events /auth/login /forgot-password"),
      ...words("/legal/legal-notice /legal/privacy /legal/terms /legal/cookies"),
      ...[course, "/reset-password/not-a-token", "/no-such-page"],
    ],
    learner: [
      ...words("/dashboard /profile /change-password /billing /review /downloads /billing/upgrade-payment"),
      ...[`${course}/lessons`, `${course}/lessons/${lessonId}`],
    ],
    staff: words(`/plans /setting /User /User/create /User/customers /User/roles /mail/send /mail/templates
      /events/manage /configs /audit /data-requests /courses/create`),
  };
}

const prefix = (lang: string) => (lang === "fr" ? "" : `/${lang}`);

/** Client-side navigation: one page load per role, the router does the rest. */
async function visit(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, url);
  await page.waitForURL((u) => u.pathname + u.search === url);
}

async function crawl(page: Page, lang: string, paths: string[], found: string[], suspects: string[]) {
  for (const p of paths) {
    const url = `${prefix(lang)}${p}`.replace(/\/$/, "") || "/";
    await visit(page, url);
    const text = await settledText(page);
    for (const s of suspects) if (text.includes(s)) found.push(`${url}: «${s}»`);
  }
}

async function crawlLanguage(
  browser: Browser,
  request: APIRequestContext,
  lang: string,
  learner: Account | null,
) {
  const every = pages(await ids(request));
  // without a learner: the visitor's pages only (the short Spanish run)
  const all = learner ? every : { visitor: every.visitor };
  const suspects = otherLanguageTexts(lang);
  expect(suspects.length).toBeGreaterThan(100);
  const found: string[] = [];
  for (const [role, paths] of Object.entries(all)) {
    const context = await browser.newContext({ locale: lang });
    const page = await context.newPage();
    if (role !== "visitor" && learner) await signIn(page, role === "staff" ? ADMIN : learner);
    await page.goto(`${prefix(lang)}/` === "/" ? "/" : prefix(lang));
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await crawl(page, lang, paths, found, suspects);
    await context.close();
  }
  expect(found, `texts of another language on ${lang} pages`).toEqual([]);
}

test.use({ screenshot: "off", trace: "off" });

// French and English: every page, as visitor, learner and staff, in tests/page-matrix.spec.ts
// (the same page loads as the accessibility checks).
test("Spanish: the public pages under /es read only Spanish, with their hreflang and switch", async ({
  browser,
  request,
  page,
}) => {
  await page.goto("/es/courses");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cursos");
  await expect(page.locator('link[rel="alternate"][hreflang="es"]')).toHaveAttribute(
    "href",
    /\/es\/courses$/,
  );
  await page.getByTestId("lang-switch-en").click();
  await expect(page).toHaveURL(/\/en\/courses$/);
  await crawlLanguage(browser, request, "es", null);
});
